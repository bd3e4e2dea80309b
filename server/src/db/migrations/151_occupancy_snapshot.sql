-- A published month frozen per occupancy (docs/occupancies.md): the flat's split between the
-- occupancies that lived there in the month, as published, for a flat with more than one of them
-- (null: one occupant or none, whose figures are the flat's).
ALTER TABLE statement_snapshot ADD COLUMN occupancies jsonb;
