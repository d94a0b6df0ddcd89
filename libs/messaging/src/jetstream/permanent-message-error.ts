// Thrown by a handler when retrying cannot help (bad payload, unknown job): the message is termed at once.
export class PermanentMessageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentMessageError';
  }
}
