import { refusedRange } from '../../domain/webhook/address';

describe('webhook address ranges', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00::1', 'unique local'],
    ['fc00::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:7f00:0001::1', 'loopback'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRange(address)).toMatch(new RegExp(`^${range}`));
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2001:4860:4860::8888', '2606:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1'])(
    'accepts the public address %s',
    (address) => {
      expect(refusedRange(address)).toBeNull();
    },
  );

  it('is not fooled by text that is no address', () => {
    for (const text of ['example.com', '1.2.3', '1.2.3.256', '1:2:3', '1::2::3', 'fe80::g']) expect(refusedRange(text)).toBeUndefined();
  });
});
