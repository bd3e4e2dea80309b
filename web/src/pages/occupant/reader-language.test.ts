import { describe, expect, it } from 'vitest';
import { readerLanguage } from './reader-language';

describe('readerLanguage', () => {
  it('takes ?lang= first, then the choice made in this browser, then the browser’s languages, then Lithuanian', () => {
    expect(readerLanguage('?lang=en', 'lt', ['lt-LT'])).toBe('en');
    expect(readerLanguage('?x=1&lang=lt', 'en', ['en-GB'])).toBe('lt');
    // A language the product does not have is no choice.
    expect(readerLanguage('?lang=de', null, ['en-US'])).toBe('en');
    expect(readerLanguage('', 'lt', ['en-US'])).toBe('lt');
    expect(readerLanguage('', null, ['de-DE', 'en-US', 'lt'])).toBe('en');
    expect(readerLanguage('', null, ['LT'])).toBe('lt');
    expect(readerLanguage('', null, ['de', 'fr'])).toBe('lt');
    expect(readerLanguage('', null, [])).toBe('lt');
  });
});
