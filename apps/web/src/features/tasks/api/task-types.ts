/** A drawing (Midjourney) task row; submit_time and finish_time are in milliseconds. */
export interface MidjourneyTask {
  id: number;
  created_at?: number;
  submit_time: number;
  finish_time: number;
  channel_id?: number;
  action: string;
  mj_id: string;
  code: number;
  status: string;
  progress: string;
  image_url: string;
  prompt: string;
  prompt_en: string;
  fail_reason: string;
}

/** An async (Suno) task row; times in seconds. */
export interface AsyncTask {
  id: number;
  task_id: string;
  platform: string;
  action: string;
  status: string;
  submit_time: number;
  finish_time: number;
  progress: string;
  channel_id?: number;
  fail_reason: string;
  data?: unknown;
}

export interface TaskPage<T> {
  items: T[];
  total: number;
}

/** Filters of both lists; times in Unix seconds (0 = none). */
export interface TaskFilters {
  id: string;
  channelId: string;
  start: number;
  end: number;
}

export interface TaskListQuery extends TaskFilters {
  page: number;
  pageSize: number;
}
