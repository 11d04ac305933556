/** The value after `flag` in an operator command's arguments (`--out FILE`), or undefined. */
export const optionValue = (args: readonly string[], flag: string): string | undefined => {
  const at = args.indexOf(flag);
  const value = at >= 0 ? args[at + 1] : undefined;
  return value === undefined || value.startsWith('--') ? undefined : value;
};
