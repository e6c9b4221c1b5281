import type { ClientRequest } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { isMultipartContentType, type MultipartForm } from '../../util/multipart.js';
import { invalidField, readModelField } from '../openai-completions/openai-request-fields.js';
import { readJsonObjectBody } from '../read-json-body.js';
import {
  jsonMediaCall,
  type MediaFields,
  mediaCodec,
  parseMultipartCall,
  readContentType,
  readOptionalInteger,
  readOptionalString,
  readRequiredString,
} from './media-request.js';

/** The model billed when an image request names none (reference §4.5). */
export const DEFAULT_IMAGE_MODEL = 'dall-e-2';
/** The size billed when an image request names none. */
export const DEFAULT_IMAGE_SIZE = '1024x1024';
/** Most images one request may ask for. */
export const MAX_IMAGE_COUNT = 10;

const DALLE_SIZES: Readonly<Record<string, readonly string[]>> = {
  'dall-e-2': ['256x256', '512x512', '1024x1024'],
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
};
const DALLE3_QUALITIES = ['standard', 'hd'];

/**
 * Validates the image fields billing depends on, for JSON generations and multipart edits:
 * `model` (default `dall-e-2`), `prompt` (required), `n` (1–10, default 1), `size` (default
 * `1024x1024`; the `×` character is rejected; dall-e-2 and dall-e-3 only accept their sizes) and
 * `quality` (dall-e-3: `standard` or `hd`, default `standard`).
 */
export function validateOpenAIImagesFields(
  record: Readonly<Record<string, unknown>>,
  fromText: boolean,
): MediaFields {
  const model = readModelField(record, DEFAULT_IMAGE_MODEL);
  const prompt = readRequiredString(record, 'prompt');
  const imageCount = readOptionalInteger(record, 'n', 1, MAX_IMAGE_COUNT, fromText) ?? 1;
  const size = readOptionalString(record, 'size');
  if (size?.includes('×')) {
    invalidField('size', '"size" must be written WIDTHxHEIGHT with the letter x, not ×');
  }
  const allowed = DALLE_SIZES[model];
  if (size !== undefined && allowed !== undefined && !allowed.includes(size)) {
    invalidField('size', `"size" must be one of ${allowed.join(', ')} for ${model}`);
  }
  let quality = readOptionalString(record, 'quality');
  if (model === 'dall-e-3') {
    quality ??= 'standard';
    if (!DALLE3_QUALITIES.includes(quality)) {
      invalidField('quality', `"quality" must be one of ${DALLE3_QUALITIES.join(', ')} for dall-e-3`);
    }
  }
  return {
    model,
    prompt: { texts: [prompt] },
    quantities: { imageCount, imageSize: size ?? DEFAULT_IMAGE_SIZE, imageQuality: quality },
  };
}

/** Total bytes of the file parts of a form. */
export function uploadBytes(form: MultipartForm): number {
  let total = 0;
  for (const part of form.parts) if (part.filename !== undefined) total += part.data.length;
  return total;
}

/**
 * Parses an image request: JSON `POST /v1/images/generations`, or multipart
 * `POST /v1/images/edits` (at least one `image` / `image[]` file required). Both are protocol
 * `openai-images`; the adapter picks the upstream endpoint from `call.path`. Never streams.
 * `call.quantities` carries n, size, quality (and the upload size for edits).
 */
export function parseOpenAIImagesRequest(request: ClientRequest): RelayCall {
  const contentType = readContentType(request);
  if (isMultipartContentType(contentType) || isImageEditPath(request.path)) {
    return parseMultipartCall('openai-images', request, (fields, form) => {
      const hasImage = form.parts.some(
        (part) => part.filename !== undefined && (part.name === 'image' || part.name === 'image[]'),
      );
      if (!hasImage) invalidField('image', '"image" file is required');
      const result = validateOpenAIImagesFields(fields, true);
      return { ...result, quantities: { ...result.quantities, uploadBytes: uploadBytes(form) } };
    });
  }
  const body = readJsonObjectBody(request);
  return jsonMediaCall('openai-images', request, body, validateOpenAIImagesFields(body, false));
}

/** True for `/v1/images/edits` (with or without a trailing slash). */
export function isImageEditPath(path: string | undefined): boolean {
  return path !== undefined && /\/images\/edits\/?$/.test(path);
}

/** The codec for clients of `POST /v1/images/generations` and `POST /v1/images/edits`. */
export const openAIImagesCodec = mediaCodec(
  'openai-images',
  '/v1/images/generations',
  parseOpenAIImagesRequest,
);
