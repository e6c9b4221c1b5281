import type { MockRequestContext } from '../mock-request-context.ts';
import { stripScenarioDirectives } from '../mock-scenario.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { pause, sendBody } from '../response-writer.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { countWords } from '../word-count.ts';
import { readOpenAiForm } from './openai-form-request.ts';

/** Audio tokens per started second reported by `gpt-4o*-transcribe` models. */
export const audioTokensPerSecond = 10;
/** Bytes per second assumed for audio that is not a WAV file (128 kbit/s). */
const assumedBytesPerSecond = 16_000;
const formats = new Set(['json', 'verbose_json', 'text', 'srt', 'vtt']);

/**
 * The length of an audio file in seconds, rounded to hundredths: from the `fmt ` byte rate and
 * the `data` chunk size of a WAV file, else the size at 16,000 bytes per second.
 */
export function audioDurationSeconds(audio: Buffer): number {
  let seconds = audio.length / assumedBytesPerSecond;
  if (
    audio.length >= 12 &&
    audio.toString('latin1', 0, 4) === 'RIFF' &&
    audio.toString('latin1', 8, 12) === 'WAVE'
  ) {
    let byteRate = 0;
    for (let offset = 12; offset + 8 <= audio.length; ) {
      const id = audio.toString('latin1', offset, offset + 4);
      const size = audio.readUInt32LE(offset + 4);
      if (id === 'fmt ' && offset + 20 <= audio.length) byteRate = audio.readUInt32LE(offset + 16);
      if (id === 'data' && byteRate > 0) {
        seconds = Math.min(size, audio.length - offset - 8) / byteRate;
        break;
      }
      offset += 8 + size + (size % 2);
    }
  }
  return Math.round(seconds * 100) / 100;
}

function timestamp(seconds: number, separator: string): string {
  const millis = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const clock = `${pad(Math.floor(millis / 3_600_000))}:${pad(Math.floor(millis / 60_000) % 60)}:${pad(Math.floor(millis / 1000) % 60)}`;
  return `${clock}${separator}${pad(millis % 1000, 3)}`;
}

/**
 * `POST /v1/audio/transcriptions` and `/v1/audio/translations` (multipart: `file`, `model`,
 * optional `prompt`, `response_format`, `language`). The text is
 * `Hello from mock <model>: transcript of <file name>` (`translation of` for translations).
 * `json` → `{text, usage}`; `verbose_json` → task, language, `duration`, one segment, usage;
 * `text`, `srt`, `vtt` → plain text. Transcription usage is `{type: "duration", seconds}`
 * (seconds rounded up) for whisper models and tokens for `gpt-4o*` models (audio tokens = 10 per
 * started second, text tokens = words of `prompt`, output = words of the text); translations
 * report none, as OpenAI's do.
 */
export async function handleOpenAiTranscription(context: MockRequestContext): Promise<void> {
  const { response, scenario } = context;
  const parsed = readOpenAiForm(context, ['model'], ['file']);
  if (!parsed) return;
  const { form, files } = parsed;
  const translation = context.path.endsWith('/translations');
  const format = form.fields.get('response_format') ?? 'json';
  if (!formats.has(format)) {
    sendProtocolError(response, 'openai', {
      status: 400,
      message: `Invalid value: '${format}'. Supported values are: 'json', 'text', 'srt', 'verbose_json', and 'vtt'.`,
      param: 'response_format',
      code: 'invalid_value',
    });
    return;
  }
  const model = form.fields.get('model')!;
  const file = files[0]!;
  const duration = audioDurationSeconds(file.data);
  const text = `Hello from mock ${model}: ${translation ? 'translation' : 'transcript'} of ${file.filename || 'audio'}`;
  let usage: Record<string, unknown> | undefined;
  if (!translation && !scenario.noUsage) {
    const seconds = Math.max(1, Math.ceil(duration));
    if (model.startsWith('gpt-4o')) {
      const audioTokens = seconds * audioTokensPerSecond;
      const textTokens = countWords(stripScenarioDirectives(form.fields.get('prompt') ?? ''));
      const outputTokens = countWords(text);
      usage = {
        type: 'tokens',
        input_tokens: audioTokens + textTokens,
        input_token_details: { text_tokens: textTokens, audio_tokens: audioTokens },
        output_tokens: outputTokens,
        total_tokens: audioTokens + textTokens + outputTokens,
      };
    } else {
      usage = { type: 'duration', seconds };
    }
  }
  if (format === 'json' || format === 'verbose_json') {
    const result: Record<string, unknown> =
      format === 'json'
        ? { text }
        : {
            task: translation ? 'translate' : 'transcribe',
            language: translation ? 'english' : (form.fields.get('language') ?? 'english'),
            duration,
            text,
            segments: [
              {
                id: 0,
                seek: 0,
                start: 0,
                end: duration,
                text,
                tokens: [],
                temperature: 0,
                avg_logprob: -0.1,
                compression_ratio: 1,
                no_speech_prob: 0,
              },
            ],
          };
    if (usage !== undefined) result.usage = usage;
    await sendResultJson(response, scenario, result);
    return;
  }
  let body = `${text}\n`;
  if (format === 'srt') body = `1\n${timestamp(0, ',')} --> ${timestamp(duration, ',')}\n${text}\n\n`;
  if (format === 'vtt') body = `WEBVTT\n\n${timestamp(0, '.')} --> ${timestamp(duration, '.')}\n${text}\n\n`;
  if (!(await pause(response, scenario.slowFirstByteMs))) return;
  sendBody(response, 200, 'text/plain; charset=utf-8', body);
}
