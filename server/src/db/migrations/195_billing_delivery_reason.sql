-- A delivery attempt keeps no more of an answer than its status and a reason (docs/integration.md,
-- "Notices on publication"): the reason code the delivery log shows in the reader's language, and
-- `response` only a short sanitised reason phrase. The start of answers kept so far is dropped.
ALTER TABLE billing_delivery_attempt ADD COLUMN reason text;
UPDATE billing_delivery_attempt SET reason = CASE
    WHEN status BETWEEN 200 AND 299 THEN 'accepted'
    WHEN status IS NOT NULL THEN 'httpStatus'
    WHEN response = 'accepted' THEN 'accepted'
    WHEN error LIKE 'mail is not configured%' THEN 'mailNotConfigured'
    ELSE 'networkError' END;
UPDATE billing_delivery_attempt SET response = NULL, error = NULL;
ALTER TABLE billing_delivery_attempt ALTER COLUMN reason SET NOT NULL;

-- A receiver address with a user name or password (refused from now on) loses them and is switched
-- off; its pending notices are given up, as when switched off by hand.
UPDATE billing_delivery SET given_up_at = now()
 WHERE delivered_at IS NULL AND given_up_at IS NULL
   AND receiver_id IN (SELECT id FROM billing_receiver WHERE url ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@');
UPDATE billing_receiver SET url = regexp_replace(url, '^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@', '\1'), active = false
 WHERE url ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@';
