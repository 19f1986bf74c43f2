/* cmd-entropy.c - `herald entropy`: a seat's word for the seed of a game
 * made with 'herald new --await-entropy', given after the commitment is
 * public; the opening deal follows the last word (herald-entropy(1)). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct entropy_run {
	cli_common common;
	const char *seat, *key;
	int deal;
	const char *word;	/* the seat's word (NULL with --deal) */
} entropy_run;

static cli_spec spec;

static int entropy_option(void *ctx, int opt, const char *arg)
{
	entropy_run *r = ctx;
	switch (opt) {
	case 'a': r->seat = arg; return 0;
	case 'k': r->key = arg; return 0;
	case 'd': r->deal = 1; return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "as", required_argument, NULL, 'a' },
	{ "key", required_argument, NULL, 'k' },
	{ "deal", no_argument, NULL, 'd' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "entropy",
	.synopsis = "--as=SEAT [OPTION]... FILE WORD\n--deal [OPTION]... FILE",
	.about =
	N_("Give SEAT's word for the seed of the game of FILE, made with 'herald new\n"
	"--await-entropy': herald adds the tag Entropy<n> and, once every seat has\n"
	"given its word, makes the opening deal from the committed secret and the\n"
	"words (herald-notation(5), FAIR CHANCE).  With --deal the organiser deals\n"
	"at once with the words given (a seat without one gives the empty word).\n"
	"A word is taken only before the game's first action, once per seat.\n"
	"\n"
	"Exit status: 0 when the word (or the deal) was written, 1 when it was\n"
	"refused (FILE unchanged), 2 on a usage or input/output error.\n"),
	.options_help =
	N_("  -a, --as=SEAT          the seat whose word it is\n"
	"  -d, --deal             deal now, without waiting for more words\n"
	"  -k, --key=KEYFILE      the key file (default FILE.key)\n"),
	.shortopts = "a:k:d",
	.longopts = longopts,
	.option = entropy_option,
};

static int give_word(hg_master *m, void *ctx, hg_buf *told, hg_diags *d)
{
	const entropy_run *r = ctx;
	return hg_master_entropy(m, r->deal ? NULL : r->seat, r->word, told, d);
}

int cli_entropy_main(int argc, char **argv)
{
	entropy_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE");
	if (r.deal && (r.seat || first + 1 < argc))
		return cli_usage_error(&spec, "--deal takes no seat and no word");
	if (!r.deal && (!r.seat || first + 2 != argc))
		return cli_usage_error(&spec, "give --as=SEAT and one WORD (or --deal)");
	r.word = r.deal ? NULL : argv[first + 1];
	return cli_master_run(&r.common, "entropy", argv[first], r.key, 1, give_word, &r);
}
