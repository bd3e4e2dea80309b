-- The job that sends the occupants' notices (docs/delivery.md), registered like the others.
INSERT INTO job (name) VALUES ('occupant-delivery') ON CONFLICT (name) DO NOTHING;
