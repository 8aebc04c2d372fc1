import type { Logger } from 'pino';

/**
 * Work an answer must not wait for (a reset mail: whether it is sent must not show in the answer's timing).
 * Failures go to the log; `settled()` waits for what is running (server close, tests).
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<void>): void {
    const promise = Promise.resolve()
      .then(task)
      .catch((error: unknown) => this.logger.error({ err: error, task: name }, 'background task failed'))
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  async settled(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}
