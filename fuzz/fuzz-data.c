/* fuzz-data.c - libFuzzer target for one game's YAML data loader (built once
 * per game with -DFUZZ_GAME="<game id>").  The first byte of the input picks
 * one of the game's tags that name a data file of the record's own (its
 * class's data_tags), the rest is the file's text: the loader reads
 * it as a record would make it, validates it field by field, and, when it
 * loads, a record is set up and replayed on it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "herald-engine.h"

#if !defined(FUZZ_GAME)
#error "build with -DFUZZ_GAME=\"<game id>\""
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const hg_data_tag *tags;
static size_t ntags;
static char dir[] = "/tmp/herald-fuzz-data-XXXXXX";
static int have_dir;

static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!have_dir) {
		if (!mkdtemp(dir))
			abort();
		have_dir = 1;
		atexit(remove_dir);
		const hg_game_class *cls = hg_game_find(FUZZ_GAME);
		if (!cls || !cls->data_tags || !cls->data_tags[0].name)
			abort();
		tags = cls->data_tags;
		while (tags[ntags].name)
			ntags++;
	}
	if (size == 0)
		return 0;
	const char *tag = tags[data[0] % ntags].name;
	char file[sizeof dir + 32], record[sizeof dir + 32];
	snprintf(file, sizeof file, "%s/data.yaml", dir);
	snprintf(record, sizeof record, "%s/fuzz.hgn", dir);
	FILE *fp = fopen(file, "wb");
	if (!fp)
		abort();
	fwrite(data + 1, 1, size - 1, fp);
	fclose(fp);

	hg_buf text;
	hg_buf_init(&text);
	hg_buf_printf(&text, "[Game \"%s\"]\n[Date \"2026.11.21\"]\n[Players \"Ana; Ben\"]\n"
		      "[Seed \"fuzz\"]\n[%s \"data.yaml\"]\n[Result \"*\"]\n\n*\n",
		      FUZZ_GAME, tag);
	/* A fresh session: the data are cached by the file's identity, which
	 * a new file of the same name may take over. */
	hg_session *session = hg_session_new(NULL);
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem(record, text.data, text.len);
	hg_game_record *g;
	while (hg_parser_next(p, &g, &d) == 1) {
		hg_check_game(session, g, &d, NULL, NULL, NULL, NULL);
		hg_record_free(g);
	}
	hg_parser_close(p);
	hg_diags_free(&d);
	hg_session_free(session);
	hg_buf_free(&text);
	unlink(file);
	return 0;
}
