import type { MockRequestContext } from '../mock-request-context.ts';
import { type FormPart, type ParsedForm, parseMultipartForm } from '../multipart-form.ts';
import { sendProtocolError } from '../protocol-errors.ts';

/**
 * Parses the multipart body of an OpenAI upload endpoint (transcriptions, translations, image
 * edits) and checks its required fields and file parts. Sends OpenAI's 400 and returns
 * `undefined` when the body is not a form or something required is missing.
 */
export function readOpenAiForm(
  context: MockRequestContext,
  requiredFields: readonly string[],
  fileFields: readonly string[],
): { form: ParsedForm; files: FormPart[] } | undefined {
  const { response } = context;
  const contentType = context.request.headers['content-type'];
  const form = parseMultipartForm(context.rawBody, contentType);
  if (form === undefined) {
    sendProtocolError(response, 'openai', {
      status: 400,
      message:
        "Invalid Content-Type header or body: this endpoint expects 'multipart/form-data' with a boundary.",
    });
    return undefined;
  }
  for (const name of requiredFields) {
    const value = form.fields.get(name);
    if (value === undefined || value === '') {
      sendProtocolError(response, 'openai', missingParameter(name));
      return undefined;
    }
  }
  const files = form.parts.filter((part) => part.filename !== undefined && fileFields.includes(part.name));
  if (files.length === 0 || files.some((file) => file.data.length === 0)) {
    sendProtocolError(response, 'openai', missingParameter(fileFields[0]!));
    return undefined;
  }
  return { form, files };
}

function missingParameter(name: string) {
  return {
    status: 400,
    message: `Missing required parameter: '${name}'.`,
    param: name,
    code: 'missing_required_parameter',
  };
}

/** A numeric form field as an integer in `[min, max]`, or `fallback` when absent or not a number. */
export function readFormInteger(
  form: ParsedForm,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = Number(form.fields.get(name));
  if (!Number.isFinite(value) || form.fields.get(name) === undefined) return fallback;
  return Math.min(Math.max(min, Math.floor(value)), max);
}
