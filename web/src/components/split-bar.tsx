import { useId } from 'react';
import { formatDecimal } from '../format';
import './split-bar.css';

/*
 * A whole divided into its parts, drawn as one horizontal bar (docs/accessibility.md, "Pictures of
 * numbers"): each part a segment as wide as its share, told apart by a pattern, a border and its
 * number, not by colour alone; the legend under it names every part with its value and share.
 * The bar itself is hidden from screen readers: the figure is named by its caption and the legend
 * is a list they read, with every number.
 */

/** The patterns a part can be drawn with (split-bar.css); the same pattern and number in every bar. */
export const SPLIT_PATTERNS = 8;

export interface SplitPart {
  /** Stable key; also the data-part attribute tests and print styles find the part by. */
  key: string;
  label: string;
  value: number;
  /** 1..SPLIT_PATTERNS: the part's pattern and the number that names it in the bar and the legend. */
  pattern: number;
}

/** A segment narrower than this share of the bar has no room for its number (the legend has it). */
const KEY_MIN_SHARE = 0.045;

/** Each part's share of the parts' sum (0 when the sum is 0; a negative value counts as 0). */
export function shares(parts: readonly SplitPart[]): number[] {
  const total = parts.reduce((s, p) => s + Math.max(0, p.value), 0);
  return parts.map((p) => (total > 0 ? Math.max(0, p.value) / total : 0));
}

export function SplitBar({
  title,
  parts,
  unit,
  language,
  testId,
}: {
  /** What the whole bar is, with its total: the figure's caption and its name for a screen reader. */
  title: string;
  parts: readonly SplitPart[];
  unit: string;
  language: string;
  testId?: string;
}) {
  const captionId = useId();
  const share = shares(parts);
  const percent = (s: number) => `${formatDecimal(s * 100, language, 1)} %`;
  return (
    <figure className="split-bar" aria-labelledby={captionId} data-testid={testId}>
      <figcaption id={captionId} className="split-bar-caption">
        {title}
      </figcaption>
      <div className="split-bar-track" aria-hidden="true">
        {parts.map((p, i) =>
          share[i]! > 0 ? (
            <div
              key={p.key}
              data-part={p.key}
              className={`split-bar-part split-pattern-${p.pattern}`}
              style={{ flexGrow: share[i]! }}
            >
              {share[i]! >= KEY_MIN_SHARE && <span className="split-bar-key">{p.pattern}</span>}
            </div>
          ) : null,
        )}
      </div>
      <ul className="split-bar-legend">
        {parts.map((p, i) => (
          <li key={p.key} data-part={p.key}>
            <span aria-hidden="true" className={`split-bar-swatch split-pattern-${p.pattern}`} />
            <span aria-hidden="true" className="split-bar-key">
              {p.pattern}
            </span>
            <span>
              <span className="split-bar-label">{p.label}</span>{' '}
              <span className="split-bar-figures">
                <span className="split-bar-value">
                  {formatDecimal(p.value, language, 3)} {unit}
                </span>{' '}
                <span className="split-bar-share">({percent(share[i]!)})</span>
              </span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
