-- The reading rules look at a week by default (was 14 days): the full run over
-- every device halves (docs/data-quality.md, npm run bench:dq -w bench).
UPDATE dq_setting SET value = '7' WHERE key = 'window.days' AND value = '14';
