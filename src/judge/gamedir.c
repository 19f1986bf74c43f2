/* gamedir.c - one game's directory under the judge's GAMES directory:
 * game.hgn (the master record) and its key file, `players` (seat,
 * address and token of each player), `state` (the deadline, the missed
 * deadlines, a pending draw offer), `log` (every message handled) and
 * `lock`, held (flock) while a message or a tick is handled.  The files
 * are rewritten atomically; the log is only appended to. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gamedir.h"

static char *path_in(const judge_game *g, const char *name)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "%s/%s", g->dir, name);
	return cli_buf_steal(&b);
}

/* Reads a whole small file (at most 1 MiB: the judge's own files); NULL
 * with errno set. */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "re");
	if (!fp)
		return NULL;
	hg_buf b;
	hg_buf_init(&b);
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0 && b.len < (1u << 20))
		hg_buf_putn(&b, chunk, got);
	fclose(fp);
	if (!b.data)
		hg_buf_puts(&b, "");
	return cli_buf_steal(&b);	/* (a list read back in part is never used) */
}

static void read_players(judge_game *g)
{
	char *path = path_in(g, "players");
	char *text = slurp(path);
	free(path);
	if (!text)
		return;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[3] = { 0 };
		char *fs = NULL;
		size_t n = 0;
		for (char *w = strtok_r(line, "\t", &fs); w && n < 3; w = strtok_r(NULL, "\t", &fs))
			f[n++] = w;
		if (n < 2)
			continue;
		g->players = cli_xrealloc(g->players, (g->nplayers + 1) * sizeof *g->players);
		judge_player *p = &g->players[g->nplayers++];
		p->seat = cli_xstrdup(f[0]);
		p->addr = cli_xstrdup(f[1]);
		p->token = n == 3 && strcmp(f[2], "-") != 0 ? cli_xstrdup(f[2]) : NULL;
	}
	free(text);
}

static void read_state(judge_game *g)
{
	char *path = path_in(g, "state");
	char *text = slurp(path);
	free(path);
	if (!text)
		return;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[32], value[256];
		if (sscanf(line, "%31s %255s", key, value) != 2)
			continue;
		if (strcmp(key, "deadline-hours") == 0)
			g->deadline_hours = strtol(value, NULL, 10);
		else if (strcmp(key, "since") == 0)
			g->since = strtoll(value, NULL, 10);
		else if (strcmp(key, "reminded") == 0)
			g->reminded = (unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "missed") == 0)
			g->missed = (unsigned)strtoul(value, NULL, 10);
		else if (strcmp(key, "draw-offer") == 0)
			g->draw_offer = cli_xstrdup(value);
	}
	free(text);
}

/* Opens (creating when `create`) the lock file and takes the lock. */
static int take_lock(judge_game *g, int create)
{
	char *path = path_in(g, "lock");
	g->lock_fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
	free(path);
	if (g->lock_fd < 0)
		return -1;
	while (flock(g->lock_fd, LOCK_EX) != 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static void game_init(judge_game *g, const char *games, const char *id)
{
	memset(g, 0, sizeof *g);
	g->lock_fd = -1;
	g->id = cli_xstrdup(id);
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "%s/%s", games, id);
	g->dir = cli_buf_steal(&b);
	g->record = path_in(g, "game.hgn");
	g->deadline_hours = JUDGE_DEFAULT_DEADLINE_HOURS;
}

int judge_game_open(const char *games, const char *id, judge_game *g)
{
	game_init(g, games, id);
	struct stat st;
	if (!judge_game_id_ok(id) || stat(g->record, &st) != 0) {
		errno = ENOENT;
		return -1;
	}
	if (take_lock(g, 0) != 0)
		return -1;
	read_players(g);
	read_state(g);
	return 0;
}

int judge_game_create(const char *games, const char *id, judge_game *g)
{
	game_init(g, games, id);
	if (mkdir(g->dir, 0700) != 0)
		return -1;
	return take_lock(g, 1);
}

void judge_game_add_player(judge_game *g, const char *seat, const char *addr)
{
	g->players = cli_xrealloc(g->players, (g->nplayers + 1) * sizeof *g->players);
	judge_player *p = &g->players[g->nplayers++];
	p->seat = cli_xstrdup(seat);
	p->addr = cli_xstrdup(addr);
	p->token = NULL;
}

static int write_in(const judge_game *g, const char *name, const hg_buf *b)
{
	char *path = path_in(g, name);
	int rc = hg_write_file_atomic(path, b->data ? b->data : "", b->len);
	free(path);
	return rc;
}

int judge_game_save(const judge_game *g)
{
	hg_buf players, state;
	hg_buf_init(&players);
	hg_buf_init(&state);
	for (size_t i = 0; i < g->nplayers; i++)
		hg_buf_printf(&players, "%s\t%s\t%s\n", g->players[i].seat, g->players[i].addr,
			      g->players[i].token ? g->players[i].token : "-");
	hg_buf_printf(&state, "deadline-hours %ld\nsince %lld\nreminded %u\nmissed %u\n",
		      g->deadline_hours, g->since, g->reminded, g->missed);
	if (g->draw_offer)
		hg_buf_printf(&state, "draw-offer %s\n", g->draw_offer);
	/* both made whole before either is written */
	int rc = hg_buf_failed(&players) || hg_buf_failed(&state) ? HG_ENOMEM
		: write_in(g, "players", &players);
	if (rc == 0)
		rc = write_in(g, "state", &state);
	if (rc == -1 && errno == ENOMEM)
		rc = HG_ENOMEM;
	hg_buf_free(&players);
	hg_buf_free(&state);
	return rc;
}

void judge_game_close(judge_game *g)
{
	if (g->lock_fd >= 0)
		close(g->lock_fd);	/* releases the lock */
	for (size_t i = 0; i < g->nplayers; i++) {
		free(g->players[i].seat);
		free(g->players[i].addr);
		free(g->players[i].token);
	}
	free(g->players);
	free(g->draw_offer);
	free(g->id);
	free(g->dir);
	free(g->record);
	memset(g, 0, sizeof *g);
	g->lock_fd = -1;
}

judge_player *judge_game_player_by_addr(const judge_game *g, const char *addr)
{
	for (size_t i = 0; addr && i < g->nplayers; i++)
		if (strcmp(g->players[i].addr, addr) == 0)
			return &g->players[i];
	return NULL;
}

judge_player *judge_game_player_by_seat(const judge_game *g, const char *seat)
{
	for (size_t i = 0; seat && i < g->nplayers; i++)
		if (strcmp(g->players[i].seat, seat) == 0)
			return &g->players[i];
	return NULL;
}

int judge_game_log(const judge_game *g, const char *text)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "%s/log", g->dir);
	if (hg_buf_failed(&b)) {
		hg_buf_free(&b);
		return HG_ENOMEM;
	}
	int fd = open(b.data, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	hg_buf_free(&b);
	if (fd < 0)
		return -1;
	size_t len = strlen(text);
	ssize_t w = write(fd, text, len);
	int rc = w == (ssize_t)len && fsync(fd) == 0 ? 0 : -1;
	close(fd);
	return rc;
}

int judge_game_seen(const judge_game *g, const char *message_id)
{
	char *path = path_in(g, "log");
	FILE *fp = fopen(path, "re");
	free(path);
	if (!fp)
		return 0;
	/* Only a message's first line names its id: "DATE message <ID> ...";
	 * the indented lines under it hold what the player wrote. */
	hg_buf want;
	hg_buf_init(&want);
	hg_buf_printf(&want, " message <%s> ", message_id);
	if (hg_buf_failed(&want))
		cli_out_of_memory();
	char *line = NULL;
	size_t cap = 0;
	int seen = 0;
	errno = 0;
	while (!seen && getline(&line, &cap, fp) > 0)
		if (line[0] != ' ' && strstr(line, want.data))
			seen = 1;
	if (!seen && errno == ENOMEM)
		cli_out_of_memory();	/* (never taken for a message not seen) */
	free(line);
	fclose(fp);
	hg_buf_free(&want);
	return seen;
}
