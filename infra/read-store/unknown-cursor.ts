/** `starting_after` names no document of the listed collection that the caller may start after. */
export class UnknownCursor extends Error {
  constructor(readonly id: string) {
    super(`no object with id ${id} to start after`);
    this.name = 'UnknownCursor';
  }
}
