/* gamedir.h - one game's directory (gamedir.c; herald-judge(1), FILES). */
#ifndef HERALD_JUDGE_GAMEDIR_H
#define HERALD_JUDGE_GAMEDIR_H

#include "judge.h"

/* The time a seat has for each move unless `new` says otherwise. */
#define JUDGE_DEFAULT_DEADLINE_HOURS 72
/* Missed deadlines in a row after which the seat to move forfeits. */
#define JUDGE_FORFEIT_AFTER 3

typedef struct judge_player {
	char *seat;		/* the seat's canonical name in the record */
	char *addr;		/* the player's address, lowercased */
	char *token;		/* the player's token, or NULL */
} judge_player;

typedef struct judge_game {
	char *id;
	char *dir;		/* GAMES/ID */
	char *record;		/* GAMES/ID/game.hgn */
	judge_player *players;
	size_t nplayers;
	long deadline_hours;
	long long since;	/* when the present wait began (epoch seconds) */
	unsigned reminded;	/* deadlines passed in the present wait */
	unsigned missed;	/* the same, as counted towards a forfeit */
	char *draw_offer;	/* the seat whose draw offer stands, or NULL */
	int lock_fd;
} judge_game;

/* Opens GAMES/ID under its lock: 0, or -1 with errno (ENOENT: no game). */
int judge_game_open(const char *games, const char *id, judge_game *g);
/* Makes GAMES/ID (it must not exist) and locks it: 0, or -1 with errno. */
int judge_game_create(const char *games, const char *id, judge_game *g);
void judge_game_add_player(judge_game *g, const char *seat, const char *addr);
/* Rewrites `players` and `state` atomically: 0, -1 with errno, or
 * HG_ENOMEM short of memory (`state` not written; `players` neither when
 * its text could not be made). */
int judge_game_save(const judge_game *g);
/* Releases the lock and frees. */
void judge_game_close(judge_game *g);
judge_player *judge_game_player_by_addr(const judge_game *g, const char *addr);
judge_player *judge_game_player_by_seat(const judge_game *g, const char *seat);
/* Appends text to the log (fsync'd): 0, -1, or HG_ENOMEM (nothing
 * written). */
int judge_game_log(const judge_game *g, const char *text);
/* Has a message with this Message-ID been handled (the log says so)? */
int judge_game_seen(const judge_game *g, const char *message_id);

#endif
