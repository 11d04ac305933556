import { DomainError } from '../shared/domain-error';
import { refusedRange } from './address';
import { WEBHOOK_EVENT_TYPES } from './event-types';

export const MAX_ENDPOINTS = 10;
export const MAX_URL_LENGTH = 2000;
export const MAX_DESCRIPTION_LENGTH = 255;

/**
 * What the URL rules need besides the URL: whether loopback endpoints are allowed (tests, local
 * development) and the addresses its host resolved to (null when it could not be resolved).
 */
export type AddressFacts = Readonly<{ allowLoopback: boolean; resolved: readonly string[] | null }>;

const refuse = (message: string, param = 'url') => new DomainError('invalid', 'invalid_parameter', message, param);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** The host as the address rules see it: brackets off IPv6, no trailing dot, lower case. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();

/**
 * Every rule of the endpoint configuration table about the URL, checked when it is saved and
 * again on every delivery: https on port 443 (or, with loopback allowed, http to 127.0.0.1 or
 * localhost on any port), no credentials, no fragment, at most 2,000 characters, and an address
 * reachable from the internet: no loopback, private, link-local or other internal range, whether
 * written as an IP or answered by DNS. Throws the refusal naming `url`.
 */
export const checkEndpointUrl = (text: string, facts: AddressFacts): URL => {
  if (text.length > MAX_URL_LENGTH) throw refuse(`The URL may have at most ${MAX_URL_LENGTH} characters.`);
  if (text.includes('#')) throw refuse('The URL may not have a # fragment.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('The URL is not a valid absolute URL.');
  }
  if (url.username || url.password) throw refuse('The URL may not contain credentials.');
  const host = hostOf(url);
  const loopbackAllowed = facts.allowLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(host) && url.port !== '';
  if (loopbackAllowed) return url;
  if (url.protocol !== 'https:') throw refuse('The URL must use https://.');
  if (url.port !== '') throw refuse('The URL must use port 443.');
  if (host === 'localhost' || host.endsWith('.localhost')) throw refuse('The URL must be reachable from the internet: localhost is refused.');
  const literal = refusedRange(host);
  if (literal) throw refuse(`The URL must be reachable from the internet: ${host} is ${literal}.`);
  if (literal === undefined) {
    if (!host.includes('.')) throw refuse('The URL must be reachable from the internet: a single-label host name is refused.');
    for (const address of facts.resolved ?? []) {
      const range = refusedRange(address);
      if (range) throw refuse(`The URL must be reachable from the internet: ${host} resolves to ${address}, ${range}.`);
    }
  }
  return url;
};

export const checkDescription = (description: string | null): void => {
  if (description !== null && description.length > MAX_DESCRIPTION_LENGTH) {
    throw refuse(`The description may have at most ${MAX_DESCRIPTION_LENGTH} characters.`, 'description');
  }
};

/** `["*"]` (all events, including types added later) or a non-empty list of known types. */
export const checkEventTypes = (events: readonly string[]): void => {
  if (events.length === 0) throw refuse('Choose at least one event type, or "*" for all.', 'events');
  if (events.includes('*')) {
    if (events.length > 1) throw refuse('"*" subscribes to every event and stands alone.', 'events');
    return;
  }
  events.forEach((type, i) => {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) throw refuse(`Unknown event type ${type}.`, `events.${i}`);
  });
};

export const checkEndpointCount = (existing: number): void => {
  if (existing >= MAX_ENDPOINTS) {
    throw new DomainError('conflict', 'webhook_endpoint_limit_reached', `An organisation may have at most ${MAX_ENDPOINTS} webhook endpoints.`);
  }
};
