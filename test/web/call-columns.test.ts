import { describe, expect, it } from 'vitest';
import { columnAttributes, columnShown, parseColumnChoice } from '../../src/web/lib/call-columns.ts';

describe("the calls list's optional columns", () => {
  it('follow the width until the user chooses', () => {
    expect(columnShown('topic', {}, 960)).toBe(false);
    expect(columnShown('topic', {}, 1100)).toBe(true);
    expect(columnShown('campaign', {}, 1279)).toBe(false);
    expect(columnShown('language', {}, 1600)).toBe(true);
    expect(columnShown('topic', { topic: true }, 960)).toBe(true);
    expect(columnShown('language', { language: false }, 1920)).toBe(false);
  });

  it('carry only the chosen columns to the table', () => {
    expect(columnAttributes({})).toEqual({});
    expect(columnAttributes({ topic: true, language: false })).toEqual({
      'data-col-topic': 'show',
      'data-col-language': 'hide',
    });
  });

  it('read back what was stored, ignoring anything else', () => {
    expect(parseColumnChoice('{"topic":true,"campaign":false}')).toEqual({ topic: true, campaign: false });
    expect(parseColumnChoice('{"score":false,"topic":"yes"}')).toEqual({});
    expect(parseColumnChoice('not json')).toEqual({});
    expect(parseColumnChoice(null)).toEqual({});
  });
});
