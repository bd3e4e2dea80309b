-- Month ends a new reading of their device may value better (docs/data-quality.md):
-- interpolated ones and the ones estimated forward. The every-minute run looks
-- them up per queued device; month ends estimated backwards (before the first
-- reading) stay out, a reading after the first one cannot change them.
CREATE INDEX month_end_revisit ON month_end (device_id, month)
  WHERE source = 'interpolated' OR (source = 'estimated' AND coalesce(method, '') NOT LIKE 'backward%');
