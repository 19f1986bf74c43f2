/* cmd-new.c - `herald new`: starts a correspondence game with herald as
 * its game master: the record with the commitment to a secret seed and the
 * opening deal, and the secret in the key file beside it (herald-new(1)). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define NEW_MAX_SEATS 64

typedef struct new_run {
	cli_common common;
	const char *game, *variant, *players, *output, *date;
	char *entropy_arg[NEW_MAX_SEATS];	/* SEAT=WORD, as given */
	size_t nentropy;
	int await_entropy;
} new_run;

static cli_spec spec;

static int new_option(void *ctx, int opt, const char *arg)
{
	new_run *r = ctx;
	switch (opt) {
	case 'g': r->game = arg; return 0;
	case 'v': r->variant = arg; return 0;
	case 'P': r->players = arg; return 0;
	case 'o': r->output = arg; return 0;
	case 'D': r->date = arg; return 0;
	case 'W': r->await_entropy = 1; return 0;
	case 'e':
		if (r->nentropy == NEW_MAX_SEATS)
			return cli_usage_error(&spec, "too many --entropy options");
		r->entropy_arg[r->nentropy++] = (char *)arg;
		return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "game", required_argument, NULL, 'g' },
	{ "variant", required_argument, NULL, 'v' },
	{ "players", required_argument, NULL, 'P' },
	{ "entropy", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "date", required_argument, NULL, 'D' },
	{ "await-entropy", no_argument, NULL, 'W' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "new",
	.synopsis = "--game=GAME --players=\"A; B; ...\" [OPTION]... -o FILE",
	.about =
	N_("Start a correspondence game refereed by herald.  FILE receives the master\n"
	"record: the tags, SeedCommit (the commitment to a secret seed), each seat's\n"
	"entropy, and the opening deal.  The secret goes to FILE.key, created with\n"
	"mode 0600 and never overwritten; it is never printed.  The chance of the\n"
	"whole game follows from the secret and the entropy (herald-notation(5),\n"
	"FAIR CHANCE).  Seats then play with 'herald move'.\n"
	"\n"
	"Exit status: 0 when the game was written, 1 when it could not be set up,\n"
	"2 on a usage or input/output error.\n"),
	.options_help =
	N_("  -g, --game=GAME        the game, by id or alias (see 'herald games')\n"
	"  -v, --variant=V        variant (or Crusader Kingdoms scenario) V\n"
	"  -P, --players=LIST     the players' names in seat order, separated by ';'\n"
	"  -e, --entropy=SEAT=WORD  a seat's contribution to the seed (SEAT: its\n"
	"                         number from 1 or its player's name); repeatable\n"
	"  -W, --await-entropy    deal nothing yet: the seats give their words with\n"
	"                         'herald entropy' after the commitment is public\n"
	"  -D, --date=YYYY.MM.DD  the Date tag (default: unknown)\n"
	"  -o, --output=FILE      the master record to create (FILE.key beside it)\n"),
	.shortopts = "g:v:P:e:o:D:W",
	.longopts = longopts,
	.option = new_option,
};

static char *trim(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return cli_xstrndup(s, n);
}

/* The --players list split at ';'. */
static size_t split_players(const char *list, char **out)
{
	size_t n = 0;
	for (const char *p = list; n < NEW_MAX_SEATS;) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		out[n++] = trim(p, len);
		if (!semi)
			break;
		p = semi + 1;
	}
	return n;
}

/* --entropy SEAT=WORD into entropy[seat]: 0, or a usage error. */
static int place_entropy(const char *arg, char **players, size_t n, char **entropy)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage_error(&spec, "--entropy takes SEAT=WORD, not '%s'", arg);
	char *seat = trim(arg, (size_t)(eq - arg));
	char *end;
	unsigned long k = strtoul(seat, &end, 10);
	long found = -1;
	if (*end == '\0' && k >= 1 && k <= n)
		found = (long)k - 1;
	for (size_t i = 0; found < 0 && i < n; i++)
		if (hg_name_eq(seat, players[i]))
			found = (long)i;
	if (found < 0) {
		int rc = cli_usage_error(&spec, "--entropy: '%s' is no seat (a number from 1 to %zu or a player's name)",
					 seat, n);
		free(seat);
		return rc;
	}
	free(seat);
	if (entropy[found])
		return cli_usage_error(&spec, "--entropy: seat %ld gives its word twice", found + 1);
	entropy[found] = cli_xstrdup(eq + 1);
	return 0;
}

int cli_new_main(int argc, char **argv)
{
	new_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first < argc)
		return cli_usage_error(&spec, "extra operand '%s'", argv[first]);
	if (!r.game)
		return cli_usage_error(&spec, "missing --game=GAME (see 'herald games')");
	if (!r.players)
		return cli_usage_error(&spec, "missing --players=\"A; B; ...\"");
	if (!r.output || strcmp(r.output, "-") == 0)
		return cli_usage_error(&spec, "missing -o FILE: the record is a file, with its key beside it");
	char *players[NEW_MAX_SEATS] = { 0 }, *entropy[NEW_MAX_SEATS] = { 0 };
	size_t n = split_players(r.players, players);
	status = -1;
	for (size_t i = 0; i < n && status < 0; i++)
		if (!players[i][0])
			status = cli_usage_error(&spec, "--players: seat %zu has no name", i + 1);
	for (size_t i = 0; i < r.nentropy && status < 0; i++)
		if (place_entropy(r.entropy_arg[i], players, n, entropy) != 0)
			status = CLI_EXIT_USAGE;
	struct stat sb;
	char *key_path = hg_master_key_path(r.output);
	if (!key_path)
		cli_wrote(HG_ENOMEM);	/* (says so and exits) */
	if (status < 0 && lstat(r.output, &sb) == 0) {
		cli_error("new", "%s exists: a new game never replaces a record", r.output);
		status = CLI_EXIT_USAGE;
	}
	hg_session *session = NULL;
	hg_diags d;
	hg_diags_init(&d);
	hg_game_record *rec = NULL;
	char secret[HG_FAIR_HEX_LEN + 1] = "";
	if (status < 0) {
		session = cli_session_new(&r.common);
		hg_master_new_opts o = { r.output, r.game, r.variant, r.date, players, n, entropy,
					 r.await_entropy };
		rec = hg_master_new(session, &o, secret, &d);
		cli_print_diags(stderr, &d, cli_use_colour(&r.common, stderr), r.common.quiet);
		if (!rec)
			status = CLI_EXIT_FAIL;
	}
	if (status < 0 && hg_master_key_create(key_path, secret) != 0) {
		cli_error("new", "cannot create the key file %s: %s", key_path, strerror(errno));
		status = CLI_EXIT_USAGE;
	}
	if (status < 0) {
		hg_buf out;
		hg_buf_init(&out);
		cli_wrote(hg_write_hgn(rec, &out));
		if (cli_write_output("new", r.output, out.data, out.len) != 0) {
			unlink(key_path);
			status = CLI_EXIT_USAGE;
		} else {
			size_t actions = 0;
			for (size_t i = 0; i < rec->moves.n; i++)
				actions += rec->moves.nodes[i].kind == HG_NODE_ACTION;
			printf("%s: a new game of %s; its secret seed is in %s (keep it to yourself)\n"
			       "actions: %zu\n",
			       r.output, hg_record_tag_value(rec, "Game"), key_path, actions);
			status = CLI_EXIT_OK;
		}
		hg_buf_free(&out);
	}
	memset(secret, 0, sizeof secret);
	hg_record_free(rec);
	hg_diags_free(&d);
	hg_session_free(session);
	free(key_path);
	for (size_t i = 0; i < n; i++) {
		free(players[i]);
		free(entropy[i]);
	}
	return status;
}
