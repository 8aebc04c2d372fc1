/** pino-roll ships no types: the part of its API used here (README, "build(options) => SonicBoom"). */
declare module 'pino-roll' {
  import type { DestinationStream } from 'pino';

  interface PinoRollOptions {
    file: string | (() => string);
    size?: number | string;
    frequency?: number | 'daily' | 'hourly';
    extension?: string;
    mkdir?: boolean;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
  }

  export default function build(
    options: PinoRollOptions,
  ): Promise<DestinationStream & { fd: number; end(): void; flushSync(): void; once(event: 'ready', listener: () => void): void }>;
}
