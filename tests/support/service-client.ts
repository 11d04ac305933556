/** A JSON call to a running service process as a client makes it: admin token unless another credential, an optional Idempotency-Key. */
export const serviceClient =
  (url: () => string, adminToken: string) =>
  async (method: string, path: string, body?: object, auth = `Bearer ${adminToken}`, key?: string) => {
    const response = await fetch(`${url()}${path}`, {
      method,
      headers: { Authorization: auth, 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, read field by field by the tests
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
