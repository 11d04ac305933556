import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Resolver } from './resolver';

export type Delivery = Readonly<{
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** The refusal of a resolved address (why it may not be called), or null to allow it. */
  checkAddress: (address: string) => string | null;
}>;

export type DeliveryResult = Readonly<{ status: number }>;

/** A delivery that never got an HTTP answer: refused address, no connection, timeout. */
export class DeliveryFailed extends Error {
  override name = 'DeliveryFailed';
}

/**
 * Posts one webhook delivery. The host is resolved here and every answer is checked before the
 * connection is made to it, so the address that was checked is the one called (a DNS answer that
 * changes to an internal address between the check and the call cannot slip through). Redirects
 * are never followed: a 3xx comes back as its status.
 */
export const webhookSender = (resolver: Resolver) => {
  const checkedLookup =
    (checkAddress: Delivery['checkAddress']): LookupFunction =>
    (hostname, options, callback) => {
      void resolver(hostname).then((addresses) => {
        if (!addresses || addresses.length === 0) return callback(new DeliveryFailed(`${hostname} does not resolve`), '', 4);
        for (const address of addresses) {
          const refusal = checkAddress(address);
          if (refusal) return callback(new DeliveryFailed(refusal), '', 4);
        }
        const family = (address: string) => (address.includes(':') ? 6 : 4);
        if (options.all) return callback(null, addresses.map((address) => ({ address, family: family(address) })));
        return callback(null, addresses[0]!, family(addresses[0]!));
      });
    };

  return (delivery: Delivery): Promise<DeliveryResult> =>
    new Promise((resolve, reject) => {
      const request = delivery.url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = request(
        delivery.url,
        {
          method: 'POST',
          headers: { ...delivery.headers, 'Content-Length': Buffer.byteLength(delivery.body).toString() },
          lookup: checkedLookup(delivery.checkAddress),
          timeout: delivery.timeoutMs,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
          res.on('error', (error) => reject(new DeliveryFailed(error.message)));
        },
      );
      const deadline = setTimeout(() => req.destroy(new DeliveryFailed(`no answer within ${delivery.timeoutMs / 1000} s`)), delivery.timeoutMs);
      req.on('timeout', () => req.destroy(new DeliveryFailed(`no answer within ${delivery.timeoutMs / 1000} s`)));
      req.on('error', (error) => {
        clearTimeout(deadline);
        reject(error instanceof DeliveryFailed ? error : new DeliveryFailed(error.message));
      });
      req.on('close', () => clearTimeout(deadline));
      req.end(delivery.body);
    });
};

export type WebhookSender = ReturnType<typeof webhookSender>;
