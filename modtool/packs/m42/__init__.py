"""M42 『狐妖小红娘』 forum werewolf: vote parsing and tallies (RULINGS.md M42-*)."""
