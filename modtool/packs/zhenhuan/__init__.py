"""血染甄嬛传: a Blood-on-the-Clocktower script (rule text shared/seeds/000_*.txt, rulings ZH-R1..R13)."""
