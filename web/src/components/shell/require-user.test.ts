import { describe, expect, it } from 'vitest';
import { returnPath } from './require-user';

describe('returnPath', () => {
  it('returns to the page asked for, with its query', () => {
    expect(returnPath({ from: '/device-data?type=3#x' })).toBe('/device-data?type=3#x');
  });
  it('goes home for anything else: no state, another site, the sign-in page itself', () => {
    expect(returnPath(null)).toBe('/');
    expect(returnPath({ from: 'https://evil.example/' })).toBe('/');
    expect(returnPath({ from: '//evil.example/' })).toBe('/');
    expect(returnPath({ from: '/login' })).toBe('/');
    expect(returnPath({ from: 42 })).toBe('/');
  });
});
