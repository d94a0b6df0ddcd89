// Thrown for any operator, option or tensor type the converter does not translate, so a caller can
// tell "this model needs converter work" from a corrupt file. `subject` names what was refused,
// e.g. `operator RESHAPE (#12, output "reshape_1")`.
export class UnsupportedTfliteError extends Error {
  override readonly name = 'UnsupportedTfliteError';

  constructor(
    readonly subject: string,
    detail: string,
  ) {
    super(`TFLite ${subject}: ${detail}`);
  }
}
