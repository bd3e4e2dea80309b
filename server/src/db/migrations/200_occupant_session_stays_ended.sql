-- An occupant session that its access end has ended stays ended (docs/occupant-access.md, "Access
-- ends"): the end is stored (ended_at), never recomputed from the setting. Changing
-- occupantAccess.graceDays ends every open session whose occupancy's access is over under the old
-- value (time ran out, not yet stored) or the new one (lowered), so raising it again revives none.
-- A trigger, so whatever writes the setting (the settings page, a script) keeps the rule.
CREATE FUNCTION occupant_sessions_past_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE occupant_session s SET ended_at = now()
    FROM occupancy o
   WHERE o.id = s.occupancy_id AND s.ended_at IS NULL AND s.expires_at > now() AND o.move_out IS NOT NULL
     AND current_date > o.move_out - 1 + least(coalesce((OLD.value #>> '{}')::int, 90),
                                               coalesce((NEW.value #>> '{}')::int, 90));
  RETURN NULL;
END $$;

CREATE TRIGGER occupant_sessions_past_access AFTER UPDATE OF value ON dq_setting
  FOR EACH ROW WHEN (NEW.key = 'occupantAccess.graceDays' AND OLD.value IS DISTINCT FROM NEW.value)
  EXECUTE FUNCTION occupant_sessions_past_access();
