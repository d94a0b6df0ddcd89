// Thrown by a handler that gives its message back without having failed at it: a shutdown (redelivered
// at once, so an idle consumer elsewhere takes it within a second), or a dependency that cannot be
// reached (redelivered after delayMs). Neither is a failed attempt of the handler's.
export class HandBack extends Error {
  constructor(
    message: string,
    readonly delayMs = 0,
  ) {
    super(message);
    this.name = 'AbortError';
  }
}
