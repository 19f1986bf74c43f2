/* referee.h - the judge's game master (referee.c). */
#ifndef HERALD_JUDGE_REFEREE_H
#define HERALD_JUDGE_REFEREE_H

#include "judge.h"

/* A record to put back as it was should the process end in the middle
 * (cmd-judge.c's exit hook: memory that runs out where the judge cannot
 * go on, or GLib's abort); armed while a change is written and not yet
 * kept.  Paths made beforehand: the hook allocates nothing. */
typedef struct judge_undo {
	char record[4096];	/* "" when nothing is armed */
	char temp[4096];
	const char *data;	/* the record's bytes as they were */
	size_t len;
} judge_undo;

typedef struct judge_ctx {
	const char *games;	/* --dir: the games' directory */
	hg_session *session;
	judge_outbox *box;
	time_t now;
	int out_of_memory;	/* memory ran out: nothing is sent nor kept */
	judge_undo *undo;	/* NULL: none kept */
} judge_ctx;

/* Handles one message: applies its commands and sends the replies.
 * *keep: the message is to be kept in failed/ (it was not understood, or
 * was refused unread).  0; -1 when something could not be written
 * (stderr says what); HG_ENOMEM when memory ran out: then no reply was
 * sent, the game's files are as they were and *keep is 1, so that the
 * message can be handled again (herald-judge(1), EXIT STATUS). */
int judge_handle(judge_ctx *c, const judge_mail *m, int *keep);
/* `--tick`: every game's deadline (reminders, forfeits).  0, -1, or
 * HG_ENOMEM (the games from the one short of memory on left as they were,
 * its messages unsent). */
int judge_tick(judge_ctx *c);

#endif
