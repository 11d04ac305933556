/**
 * Whether an IP address is one a webhook may never be sent to: loopback, private, link-local,
 * shared, reserved and multicast ranges, and their IPv6 equivalents (including IPv4 addresses
 * embedded in IPv6: mapped, compatible, NAT64, 6to4). Returns the range's name, or null for a
 * public address. Pure: parses the text itself.
 */
const parseIpv4 = (text: string): number[] | null => {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number);
};

const parseIpv6 = (input: string): number[] | null => {
  let text = input.replace(/^\[|\]$/g, '');
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) return null;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIpv4(last);
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    text = text.slice(0, lastColon + 1) + '0';
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const words = tail.length > 0 ? 8 - 2 + 1 : 8;
  const missing = words - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const all = [...head, ...Array<string>(Math.max(0, missing)).fill('0'), ...rest].map((g) => parseInt(g, 16));
  if (tail.length > 0) all.splice(all.length - 1, 1, ...tail);
  return all.length === 8 ? all : null;
};

const ipv4Range = (b: number[]): string | null => {
  const [a, c] = [b[0]!, b[1]!];
  if (a === 0) return 'this network (0.0.0.0/8)';
  if (a === 10) return 'private (10.0.0.0/8)';
  if (a === 100 && c >= 64 && c <= 127) return 'shared address space (100.64.0.0/10)';
  if (a === 127) return 'loopback (127.0.0.0/8)';
  if (a === 169 && c === 254) return 'link-local (169.254.0.0/16)';
  if (a === 172 && c >= 16 && c <= 31) return 'private (172.16.0.0/12)';
  if (a === 192 && c === 0 && b[2] === 0) return 'IETF protocol assignments (192.0.0.0/24)';
  if (a === 192 && c === 168) return 'private (192.168.0.0/16)';
  if (a === 198 && (c === 18 || c === 19)) return 'benchmarking (198.18.0.0/15)';
  if (a >= 224) return a < 240 ? 'multicast (224.0.0.0/4)' : 'reserved (240.0.0.0/4)';
  return null;
};

const embeddedIpv4 = (w: number[], from: number): number[] => [w[from]! >> 8, w[from]! & 255, w[from + 1]! >> 8, w[from + 1]! & 255];

const ipv6Range = (w: number[]): string | null => {
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'unspecified (::)';
  if (zeros(0, 7) && w[7] === 1) return 'loopback (::1)';
  if (zeros(0, 5) && w[5] === 0xffff) return ipv4Range(embeddedIpv4(w, 6)) ?? null;
  if (zeros(0, 6)) return 'IPv4-compatible (::/96)';
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return ipv4Range(embeddedIpv4(w, 6));
  if (w[0] === 0x2002) return ipv4Range(embeddedIpv4(w, 1));
  if ((w[0]! & 0xfe00) === 0xfc00) return 'unique local (fc00::/7)';
  if ((w[0]! & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((w[0]! & 0xffc0) === 0xfec0) return 'site-local (fec0::/10)';
  if ((w[0]! & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  if (w[0] === 0x2001 && w[1] === 0xdb8) return 'documentation (2001:db8::/32)';
  return null;
};

/** An IP literal's refused range, null when public; undefined when the text is not an IP address. */
export const refusedRange = (address: string): string | null | undefined => {
  const v4 = parseIpv4(address);
  if (v4) return ipv4Range(v4);
  const v6 = parseIpv6(address);
  if (v6) return ipv6Range(v6);
  return undefined;
};

/** Whether the address is on the loopback range (127.0.0.0/8, ::1 or IPv4-mapped loopback). */
export const isLoopback = (address: string): boolean => {
  const range = refusedRange(address);
  return typeof range === 'string' && range.startsWith('loopback');
};
