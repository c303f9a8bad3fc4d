import { newHandle, RequestStateSeal } from '../../src/gateway/request-state.js';

describe('RequestStateSeal', () => {
  const seal = new RequestStateSeal();
  const handle = newHandle();

  it('opens a state it sealed, before its expiry', () => {
    expect(seal.open(seal.seal(handle, Date.now() + 60_000))).toEqual({ handle });
  });

  it('refuses a state past its expiry', () => {
    expect(seal.open(seal.seal(handle, Date.now() + 1_000), Date.now() + 2_000)).toEqual({ error: 'expired' });
  });

  it('refuses a state whose handle or expiry was altered, or one sealed by another process', () => {
    const state = seal.seal(handle, Date.now() + 60_000);
    const [, , expiry, mac] = state.split('.');
    expect(seal.open(`rxgw1.${newHandle()}.${expiry}.${mac}`)).toEqual({ error: 'forged' });
    expect(seal.open(`rxgw1.${handle}.${(Date.now() + 10 ** 9).toString(36)}.${mac}`)).toEqual({ error: 'forged' });
    expect(seal.open(new RequestStateSeal().seal(handle, Date.now() + 60_000))).toEqual({ error: 'forged' });
  });

  it('refuses garbage and oversized states without throwing', () => {
    for (const state of ['', 'rxgw1', 'rxgw1.a.b', 'x.y.z.w', `rxgw1.${'a'.repeat(300)}.1.2`, 'rxgw1.a.b.c.d']) {
      expect(seal.open(state)).toEqual({ error: 'forged' });
    }
  });

  it('makes handles nobody can guess', () => {
    const handles = new Set(Array.from({ length: 1000 }, () => newHandle()));
    expect(handles.size).toBe(1000);
    expect(newHandle()).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });
});
