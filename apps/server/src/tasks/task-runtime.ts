import type { AppServices } from '../app-services.ts';
import { MidjourneyRepository } from '../db/repositories/midjourney-repository.ts';
import { TaskRepository } from '../db/repositories/task-repository.ts';
import { TaskChannelIndex } from './task-channels.ts';
import { TaskUpstream } from './task-upstream.ts';

/** What the task relay, the poller and the lists share (one per app). */
export interface TaskRuntime {
  midjourneys: MidjourneyRepository;
  tasks: TaskRepository;
  channels: TaskChannelIndex;
  upstream: TaskUpstream;
}

const runtimes = new WeakMap<object, TaskRuntime>();

/** The task runtime of an app, created on first use. */
export function taskRuntimeOf(services: AppServices): TaskRuntime {
  let runtime = runtimes.get(services);
  if (!runtime) {
    runtime = {
      midjourneys: new MidjourneyRepository(services.database),
      tasks: new TaskRepository(services.database),
      channels: new TaskChannelIndex(
        services.channels,
        services.bus,
        services.config.syncFrequencySeconds * 1000,
      ),
      upstream: new TaskUpstream(),
    };
    runtimes.set(services, runtime);
  }
  return runtime;
}
