import type { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import {
  decodeJsonString,
  endsLikeObject,
  type StringFieldVisitor,
  scanStringFields,
  spanEquals,
} from '../../util/json-string-fields.js';

/** The delta fields holding generated text, in the order a full parse prefers them. */
const TEXT_FIELDS = ['text', 'thinking', 'partial_json'] as const;

/**
 * Reads the generated text of an Anthropic `content_block_delta` event without `JSON.parse` (one
 * per streamed token, so most of a stream's events): `delta.text`, else `delta.thinking`, else
 * `delta.partial_json`, as a full parse would. Made once per stream; {@link read} reuses its state.
 */
export class AnthropicDeltaScan {
  private data = '';
  private otherType = false;
  private rank: number = TEXT_FIELDS.length;
  private quote = 0;
  private close = 0;
  private readonly visit: StringFieldVisitor = (keyStart, keyEnd, valueQuote, valueClose, depth) => {
    const data = this.data;
    if (depth === 1) {
      if (spanEquals(data, keyStart, keyEnd, 'type'))
        this.otherType = !spanEquals(data, valueQuote + 1, valueClose, 'content_block_delta');
      return undefined;
    }
    if (depth !== 2) return undefined;
    for (let rank = 0; rank < this.rank; rank++) {
      if (spanEquals(data, keyStart, keyEnd, TEXT_FIELDS[rank]!)) {
        this.rank = rank;
        this.quote = valueQuote;
        this.close = valueClose;
        return undefined;
      }
    }
    return undefined;
  };

  /**
   * Appends the event's text to `generated`. Answers false, having appended nothing, when the
   * event must be parsed in full instead: it does not end like an object, its `type` is not
   * `content_block_delta`, or its text has an invalid escape.
   */
  read(data: string, generated: GeneratedTextCollector): boolean {
    if (!endsLikeObject(data)) return false;
    this.data = data;
    this.otherType = false;
    this.rank = TEXT_FIELDS.length;
    scanStringFields(data, this.visit);
    this.data = '';
    if (this.otherType) return false;
    if (this.rank === TEXT_FIELDS.length) return true;
    const text = decodeJsonString(data, this.quote, this.close);
    if (text === undefined) return false;
    generated.append(text);
    return true;
  }
}
