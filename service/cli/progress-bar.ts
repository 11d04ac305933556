/** A one-line progress bar on stderr for long operator commands (redrawn in place on a terminal). */
export const progressBar = (label: string, unit = 'events', stream: NodeJS.WriteStream = process.stderr) => {
  const started = Date.now();
  let lastDraw = 0;
  const rate = (done: number) => Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
  return {
    /** `etaSeconds`, when known, is shown after the rate. */
    update: (done: number, total: number, force = false, etaSeconds: number | null = null) => {
      const now = Date.now();
      if (!force && now - lastDraw < 100) return;
      lastDraw = now;
      const ratio = total > 0 ? Math.min(done / total, 1) : 1;
      const width = 30;
      const filled = Math.round(ratio * width);
      const eta = etaSeconds === null ? '' : `, ETA ${etaSeconds} s`;
      const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0)}% ${done}/${total} ${unit}, ${rate(done)}/s${eta}`;
      stream.write(stream.isTTY ? `\r${line}` : `${line}\n`);
    },
    finish: (done: number) => {
      const seconds = (Date.now() - started) / 1000;
      stream.write(`${stream.isTTY ? '\n' : ''}${label}: ${done} ${unit} in ${seconds.toFixed(2)} s (${rate(done)} ${unit}/s)\n`);
    },
  };
};
