// msgpackr loads its native accelerator inside a try/catch and falls back to its JavaScript decoder.
throw new Error('msgpackr-extract is replaced by a stub: msgpackr uses its JavaScript decoder');
