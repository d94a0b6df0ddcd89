import type { CommandRunner, ProcessCommand, RunOptions } from '../process-runner';

// A CommandRunner for unit tests: records every command and answers run() with the given stdout.
export function recordingRunner(answer: (command: ProcessCommand, options: RunOptions) => Promise<string>): CommandRunner & { commands: ProcessCommand[] } {
  const commands: ProcessCommand[] = [];
  return {
    commands,
    async run(command, options) {
      commands.push(command);
      return { stdout: await answer(command, options), stderrTail: '' };
    },
    pipe: () => Promise.reject(new Error('not used')),
  };
}
