import type { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import {
  decodeJsonString,
  endsLikeObject,
  type StringFieldVisitor,
  scanStringFields,
  spanEquals,
} from '../../util/json-string-fields.js';

/** The Responses events whose string `delta` is generated text. */
export const TEXT_DELTA_EVENTS = [
  'response.output_text.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
  'response.refusal.delta',
  'response.function_call_arguments.delta',
] as const;

/**
 * Reads a Responses text delta event (one per streamed token, so most of a stream's events)
 * without `JSON.parse`: its top-level `type` and `delta`. Made once per stream; {@link read}
 * reuses its state.
 */
export class ResponsesDeltaScan {
  private data = '';
  private textDelta = false;
  private quote = -1;
  private close = -1;
  private readonly visit: StringFieldVisitor = (keyStart, keyEnd, valueQuote, valueClose, depth) => {
    if (depth !== 1) return undefined;
    const data = this.data;
    if (spanEquals(data, keyStart, keyEnd, 'type')) {
      this.textDelta = false;
      for (const name of TEXT_DELTA_EVENTS) {
        if (spanEquals(data, valueQuote + 1, valueClose, name)) this.textDelta = true;
      }
    } else if (spanEquals(data, keyStart, keyEnd, 'delta')) {
      this.quote = valueQuote;
      this.close = valueClose;
    }
    return undefined;
  };

  /**
   * When the event is a text delta, appends its `delta` to `generated` (when `collect`) and
   * answers true. Answers false, having appended nothing, for every other event and for one that
   * does not end like an object or whose delta has an invalid escape: parse those in full.
   */
  read(data: string, generated: GeneratedTextCollector, collect: boolean): boolean {
    if (!endsLikeObject(data)) return false;
    this.data = data;
    this.textDelta = false;
    this.quote = -1;
    scanStringFields(data, this.visit);
    this.data = '';
    if (!this.textDelta || this.quote === -1) return false;
    if (!collect) return true;
    const text = decodeJsonString(data, this.quote, this.close);
    if (text === undefined) return false;
    generated.append(text);
    return true;
  }
}
