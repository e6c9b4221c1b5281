/**
 * Midjourney-proxy actions and how requests name them (pure). The relay routes and prices a
 * drawing task by the model `mj_<action>` (`swap_face` for face swap), as the reference does.
 */

export const MjAction = {
  Imagine: 'IMAGINE',
  Describe: 'DESCRIBE',
  Blend: 'BLEND',
  Upscale: 'UPSCALE',
  Variation: 'VARIATION',
  HighVariation: 'HIGH_VARIATION',
  LowVariation: 'LOW_VARIATION',
  Pan: 'PAN',
  Reroll: 'REROLL',
  Zoom: 'ZOOM',
  CustomZoom: 'CUSTOM_ZOOM',
  Inpaint: 'INPAINT',
  Modal: 'MODAL',
  Shorten: 'SHORTEN',
  Upload: 'UPLOAD',
  SwapFace: 'SWAP_FACE',
} as const;

/** The submit routes: `/mj/submit/<kind>` plus face swap (`/mj/insight-face/swap`). */
export type SubmitKind =
  | 'imagine'
  | 'change'
  | 'simple-change'
  | 'describe'
  | 'blend'
  | 'modal'
  | 'shorten'
  | 'action'
  | 'upload-discord-images'
  | 'swap-face';

export const SUBMIT_KINDS: readonly SubmitKind[] = [
  'imagine',
  'change',
  'simple-change',
  'describe',
  'blend',
  'modal',
  'shorten',
  'action',
  'upload-discord-images',
];

/** Actions of the follow-up kinds that the client names itself (`change`). */
const CHANGE_ACTIONS = new Set<string>([
  MjAction.Upscale,
  MjAction.Variation,
  MjAction.HighVariation,
  MjAction.LowVariation,
  MjAction.Pan,
  MjAction.Reroll,
  MjAction.Zoom,
  MjAction.CustomZoom,
  MjAction.Inpaint,
]);

/** The model a drawing action is routed and priced by. */
export function modelOfAction(action: string): string {
  return action === MjAction.SwapFace ? 'swap_face' : `mj_${action.toLowerCase()}`;
}

/** Actions that are the second step of a modal flow and are never charged (reference §9.1). */
export function isFreeAction(action: string): boolean {
  return action === MjAction.Inpaint || action === MjAction.CustomZoom;
}

/** A request problem, answered as a midjourney-proxy error `{code: 4, description}`. */
export type ActionResult = { action: string; index: number; taskId: string } | { error: string };

/**
 * The action and index a plus-style `customId` asks for (`MJ::JOB::upsample::2::<hash>`,
 * `MJ::JOB::variation::1::…`, `MJ::JOB::low_variation::…`, `MJ::Outpaint::…`, `MJ::CustomZoom::…`,
 * `MJ::Inpaint::…`, pan and reroll).
 */
export function parseCustomId(customId: string, taskId: string): ActionResult {
  if (customId === '') return { error: 'custom_id_is_required' };
  const parts = customId.split('::');
  const name = (parts[1] === 'JOB' ? parts[2] : parts[1]) ?? '';
  const numbered = (action: string): ActionResult => {
    const index = Number(parts[3]);
    if (!Number.isInteger(index) || index < 1 || index > 4) return { error: 'index_parse_failed' };
    return { action, index, taskId };
  };
  if (name === '') return { error: 'unknown_action' };
  if (name.includes('upsample')) return numbered(MjAction.Upscale);
  if (name === 'variation') return numbered(MjAction.Variation);
  if (name === 'low_variation') return { action: MjAction.LowVariation, index: 1, taskId };
  if (name === 'high_variation') return { action: MjAction.HighVariation, index: 1, taskId };
  if (name.includes('pan')) return { action: MjAction.Pan, index: 1, taskId };
  if (name.includes('reroll')) return { action: MjAction.Reroll, index: 1, taskId };
  if (name === 'Outpaint') return { action: MjAction.Zoom, index: 1, taskId };
  if (name === 'CustomZoom') return { action: MjAction.CustomZoom, index: 1, taskId };
  if (name === 'Inpaint') return { action: MjAction.Inpaint, index: 1, taskId };
  return { error: `unknown_action:${customId}` };
}

/** `"<taskId> U2"` / `"<taskId> V1"` / `"<taskId> R"` of `/mj/submit/simple-change`. */
export function parseSimpleChange(content: string): ActionResult {
  const parts = content.trim().split(' ');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return { error: 'content_parse_failed' };
  const [taskId = '', change = ''] = parts;
  const code = change.toLowerCase();
  if (code === 'r') return { action: MjAction.Reroll, index: 1, taskId };
  const index = Number(code.slice(1));
  if (code.length !== 2 || !Number.isInteger(index) || index < 1 || index > 4) {
    return { error: 'content_parse_failed' };
  }
  if (code[0] === 'u') return { action: MjAction.Upscale, index, taskId };
  if (code[0] === 'v') return { action: MjAction.Variation, index, taskId };
  return { error: 'content_parse_failed' };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The action a submit request asks for, validated as the reference does: imagine needs a prompt,
 * change needs taskId + action + index, face swap needs both images. Follow-up kinds return the
 * task they refer to.
 */
export function actionOfSubmit(kind: SubmitKind, body: Record<string, unknown>): ActionResult {
  switch (kind) {
    case 'imagine':
      if (text(body.prompt).trim() === '') return { error: 'prompt_is_required' };
      return { action: MjAction.Imagine, index: 0, taskId: '' };
    case 'describe':
      return { action: MjAction.Describe, index: 0, taskId: '' };
    case 'blend':
      return { action: MjAction.Blend, index: 0, taskId: '' };
    case 'shorten':
      return { action: MjAction.Shorten, index: 0, taskId: '' };
    case 'upload-discord-images':
      return { action: MjAction.Upload, index: 0, taskId: '' };
    case 'swap-face':
      if (text(body.sourceBase64) === '' || text(body.targetBase64) === '') {
        return { error: 'sour_base64_and_target_base64_is_required' };
      }
      return { action: MjAction.SwapFace, index: 0, taskId: '' };
    case 'modal':
      if (text(body.taskId) === '') return { error: 'task_id_is_required' };
      return { action: MjAction.Modal, index: 0, taskId: text(body.taskId) };
    case 'simple-change':
      if (text(body.content) === '') return { error: 'content_is_required' };
      return parseSimpleChange(text(body.content));
    case 'action':
      if (text(body.taskId) === '') return { error: 'task_id_is_required' };
      return parseCustomId(text(body.customId), text(body.taskId));
    case 'change': {
      const action = text(body.action).toUpperCase();
      if (text(body.taskId) === '') return { error: 'task_id_is_required' };
      if (action === '') return { error: 'action_is_required' };
      if (!CHANGE_ACTIONS.has(action)) return { error: `unknown_action:${action}` };
      const index = typeof body.index === 'number' ? body.index : 0;
      if (action !== MjAction.Reroll && (!Number.isInteger(index) || index < 1 || index > 4)) {
        return { error: 'index_is_required' };
      }
      return { action, index, taskId: text(body.taskId) };
    }
  }
}

/** True for kinds that continue an earlier task (routed to that task's channel). */
export function isFollowUp(kind: SubmitKind): boolean {
  return kind === 'change' || kind === 'simple-change' || kind === 'modal' || kind === 'action';
}
