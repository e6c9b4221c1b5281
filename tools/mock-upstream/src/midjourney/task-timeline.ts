/**
 * Asynchronous task simulation shared by the Midjourney-proxy and Suno modes: a task is stored
 * at submit time and its state is derived from the time elapsed since, one step per state:
 * SUBMITTED (0%) → IN_PROGRESS (50%) → SUCCESS (100%) or FAILURE. Nothing runs in the
 * background; every fetch computes the state, so tests only wait a few steps.
 */

/** Default length of one state step, in milliseconds. */
export const defaultTaskStepMs = 1000;

/** How a task behaves, read from the request's scenario spec. */
export interface TaskPlan {
  /** Milliseconds spent in each of SUBMITTED and IN_PROGRESS. */
  readonly stepMs: number;
  /** The task ends in FAILURE instead of SUCCESS. */
  readonly fail: boolean;
  /** Midjourney submit code to answer (1 by default; 21, 22, 3, 23, 24... for tests). */
  readonly submitCode: number;
  /** Answer the submit with this HTTP status and an error body. */
  readonly errorStatus: number | undefined;
}

export const defaultTaskPlan: TaskPlan = Object.freeze({
  stepMs: defaultTaskStepMs,
  fail: false,
  submitCode: 1,
  errorStatus: undefined,
});

/** Thrown for a spec token the task modes do not know. */
export class TaskPlanError extends Error {
  override readonly name = 'TaskPlanError';
}

/**
 * Parses a task scenario spec: comma-separated `task-step-<ms>` (0..600000), `task-fail`,
 * `submit-code-<n>` and `error-<status>` (400..599). Unknown tokens throw, so typos fail loudly.
 */
export function parseTaskPlan(spec: string | undefined): TaskPlan {
  if (spec === undefined || spec.trim() === '') return defaultTaskPlan;
  let plan: { -readonly [K in keyof TaskPlan]: TaskPlan[K] } = { ...defaultTaskPlan };
  for (const raw of spec.split(',')) {
    const token = raw.trim();
    if (token === '') continue;
    const step = /^task-step-(\d{1,6})$/.exec(token);
    const code = /^submit-code-(\d{1,3})$/.exec(token);
    const error = /^error-(\d{3})$/.exec(token);
    if (token === 'task-fail') plan = { ...plan, fail: true };
    else if (step && Number(step[1]) <= 600_000) plan = { ...plan, stepMs: Number(step[1]) };
    else if (code) plan = { ...plan, submitCode: Number(code[1]) };
    else if (error && Number(error[1]) >= 400 && Number(error[1]) <= 599) {
      plan = { ...plan, errorStatus: Number(error[1]) };
    } else throw new TaskPlanError(`Unknown mock task scenario token: ${token}`);
  }
  return plan;
}

export type MockTaskStatus = 'SUBMITTED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';

/** One stored task. */
export interface MockTask {
  readonly id: string;
  readonly platform: 'midjourney' | 'suno';
  readonly action: string;
  readonly prompt: string;
  readonly submittedAt: number;
  readonly plan: TaskPlan;
  /** What the client sent (echoed in Midjourney's `state`, Suno's metadata). */
  readonly request: Readonly<Record<string, unknown>>;
}

/** The state of a task at a moment. */
export interface TaskSnapshot {
  readonly status: MockTaskStatus;
  readonly progress: string;
  readonly startedAt: number;
  readonly finishedAt: number;
}

/** Derives the state of a task at `now` from its plan. */
export function taskSnapshot(task: MockTask, now: number): TaskSnapshot {
  const elapsed = now - task.submittedAt;
  const { stepMs } = task.plan;
  if (elapsed < stepMs) return { status: 'SUBMITTED', progress: '0%', startedAt: 0, finishedAt: 0 };
  const startedAt = task.submittedAt + stepMs;
  if (elapsed < 2 * stepMs) return { status: 'IN_PROGRESS', progress: '50%', startedAt, finishedAt: 0 };
  const finishedAt = task.submittedAt + 2 * stepMs;
  return task.plan.fail
    ? { status: 'FAILURE', progress: '50%', startedAt, finishedAt }
    : { status: 'SUCCESS', progress: '100%', startedAt, finishedAt };
}

/** The reason a failing task reports. */
export const mockTaskFailReason = 'Mock scenario: the task failed upstream.';

/** Most tasks kept; the oldest are forgotten first. */
const maxStoredTasks = 10_000;
const tasks = new Map<string, MockTask>();
let counter = 0;

/** Stores a new task and returns it (ids are unique within the process). */
export function createTask(fields: Omit<MockTask, 'id' | 'submittedAt'>, now = Date.now()): MockTask {
  counter++;
  const id = `${now}${String(counter % 1000).padStart(3, '0')}${Math.floor(Math.random() * 1000)}`;
  const task: MockTask = { ...fields, id, submittedAt: now };
  tasks.set(id, task);
  if (tasks.size > maxStoredTasks) {
    const oldest = tasks.keys().next().value;
    if (oldest !== undefined) tasks.delete(oldest);
  }
  return task;
}

/** A stored task of the platform, if any. */
export function findTask(platform: MockTask['platform'], id: string): MockTask | undefined {
  const task = tasks.get(id);
  return task && task.platform === platform ? task : undefined;
}
