-- A delivery's address can be erased when its occupancy is anonymised (docs/delivery.md): an
-- e-mail delivery may lose its address; a letter never has one.
ALTER TABLE occupant_delivery DROP CONSTRAINT occupant_delivery_check;
ALTER TABLE occupant_delivery ADD CONSTRAINT occupant_delivery_print_no_email CHECK (channel = 'email' OR email IS NULL);
