/** Thrown by `detect` when the caller explicitly asks for a language the engine cannot score. */
export class UnsupportedLanguageError extends Error {
  readonly language: string;

  constructor(language: string, supported: readonly string[]) {
    super(`language "${language}" is not supported; supported: ${supported.join(", ")}`);
    this.name = "UnsupportedLanguageError";
    this.language = language;
  }
}
