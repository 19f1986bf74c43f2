/* fair.c - provably fair chance (herald-notation(5), FAIR CHANCE): the
 * game master's secret seed, its commitment (SeedCommit), the seats'
 * entropy (Entropy1, Entropy2, ...), the revealed seed (SeedReveal), and
 * the effective seed that all of them give, which drives the PRNG exactly
 * as a Seed tag does.  Every engine asks hg_record_chance_seed() for the
 * string its chance follows from, never the Seed tag itself. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

/* The domain of the effective seed's hash: it names the scheme and its
 * version, so that no other use of BLAKE2b in a record collides with it. */
static const char fair_domain[] = "herald-fair-seed-v1";

static void to_hex(const unsigned char *bytes, size_t n, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[bytes[i] >> 4];
		hex[2 * i + 1] = digits[bytes[i] & 15];
	}
	hex[2 * n] = '\0';
}

/* Exactly 2 * HG_FAIR_SECRET_BYTES lowercase hex digits into bytes: 0, or -1. */
static int from_hex(const char *hex, unsigned char bytes[HG_FAIR_SECRET_BYTES])
{
	if (strlen(hex) != 2 * HG_FAIR_SECRET_BYTES)
		return -1;
	for (size_t i = 0; i < 2 * HG_FAIR_SECRET_BYTES; i++) {
		char c = hex[i];
		int v;
		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else
			return -1;
		if (i % 2 == 0)
			bytes[i / 2] = (unsigned char)(v << 4);
		else
			bytes[i / 2] |= (unsigned char)v;
	}
	return 0;
}

int hg_fair_secret_new(char hex[HG_FAIR_HEX_LEN + 1])
{
	if (sodium_init() < 0)
		return -1;
	unsigned char secret[HG_FAIR_SECRET_BYTES];
	randombytes_buf(secret, sizeof secret);
	to_hex(secret, sizeof secret, hex);
	sodium_memzero(secret, sizeof secret);
	return 0;
}

int hg_fair_commit(const char *secret_hex, char commit[HG_FAIR_HEX_LEN + 1])
{
	unsigned char secret[HG_FAIR_SECRET_BYTES], digest[32];
	if (from_hex(secret_hex, secret) != 0)
		return -1;
	crypto_generichash(digest, sizeof digest, secret, sizeof secret, NULL, 0);
	to_hex(digest, sizeof digest, commit);
	sodium_memzero(secret, sizeof secret);
	return 0;
}

static void put_le32(crypto_generichash_state *h, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8),
			       (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
	crypto_generichash_update(h, b, sizeof b);
}

/* The seat number n of a tag named "Entropy<n>" (n from 1, no leading
 * zero), else 0. */
static unsigned long entropy_seat(const char *name)
{
	if (strncmp(name, "Entropy", 7) != 0 || name[7] < '1' || name[7] > '9')
		return 0;
	char *end;
	unsigned long n = strtoul(name + 7, &end, 10);
	return *end == '\0' && n <= 1000000 ? n : 0;
}

int hg_fair_effective_seed(const hg_game_record *rec, const char *secret_hex,
			   char seed[HG_FAIR_HEX_LEN + 1])
{
	unsigned char secret[HG_FAIR_SECRET_BYTES], digest[32];
	if (from_hex(secret_hex, secret) != 0)
		return -1;
	size_t seats = hg_record_nplayers(rec);
	crypto_generichash_state h;
	crypto_generichash_init(&h, NULL, 0, sizeof digest);
	crypto_generichash_update(&h, (const unsigned char *)fair_domain, sizeof fair_domain);
	crypto_generichash_update(&h, secret, sizeof secret);
	put_le32(&h, (uint32_t)seats);
	char name[32];
	for (size_t i = 1; i <= seats; i++) {
		snprintf(name, sizeof name, "Entropy%zu", i);
		const char *word = hg_record_tag_value(rec, name);
		size_t len = word ? strlen(word) : 0;
		put_le32(&h, (uint32_t)len);
		if (len)
			crypto_generichash_update(&h, (const unsigned char *)word, len);
	}
	crypto_generichash_final(&h, digest, sizeof digest);
	to_hex(digest, sizeof digest, seed);
	sodium_memzero(secret, sizeof secret);
	return 0;
}

const hg_tag *hg_record_chance_tag(const hg_game_record *rec)
{
	const hg_tag *t = hg_record_tag(rec, "Seed");
	return t ? t : hg_record_tag(rec, "SeedReveal");
}

char *hg_record_chance_seed(const hg_game_record *rec)
{
	const char *seed = hg_record_tag_value(rec, "Seed");
	if (seed)
		return hg_open_strdup(seed);
	const char *reveal = hg_record_tag_value(rec, "SeedReveal");
	if (!reveal)
		return NULL;
	char *out = hg_open_malloc(HG_FAIR_HEX_LEN + 1);
	if (!out)
		return NULL;	/* (hg_record_chance_tag tells it from no seed) */
	if (hg_fair_effective_seed(rec, reveal, out) != 0) {
		free(out);
		return NULL;	/* malformed: hg_fair_check() reports it */
	}
	return out;
}

static int is_commit_hex(const char *s)
{
	if (strlen(s) != HG_FAIR_HEX_LEN)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

static void scheme_note(hg_diag *dg)
{
	hg_diag_note(dg, "see herald-notation(5), FAIR CHANCE");
}

int hg_fair_check(const hg_game_record *rec, hg_diags *d)
{
	const hg_tag *seed = hg_record_tag(rec, "Seed");
	const hg_tag *commit = hg_record_tag(rec, "SeedCommit");
	const hg_tag *reveal = hg_record_tag(rec, "SeedReveal");
	int bad = 0;
	size_t seats = hg_record_nplayers(rec);
	for (size_t i = 0; i < rec->ntags; i++) {
		const hg_tag *t = &rec->tags[i];
		if (strncmp(t->name, "Entropy", 7) != 0)
			continue;
		unsigned long n = entropy_seat(t->name);
		if (n == 0 || n > seats) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "hgn.seed-commit",
						  "'%s' names no seat: entropy tags are Entropy1 to Entropy%zu",
						  t->name, seats);
			scheme_note(dg);
			bad = 1;
		} else if (!commit) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "hgn.seed-commit",
						  "entropy without a SeedCommit: it mixes only into a committed seed");
			scheme_note(dg);
			bad = 1;
		}
	}
	if (!commit && !reveal)
		return bad ? -1 : 0;
	if (seed) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, seed->pos, "hgn.seed-commit",
					  "a record with a committed seed must not carry a Seed tag");
		hg_diag_note(dg, "the chance follows from SeedReveal and the entropy tags");
		scheme_note(dg);
		return -1;
	}
	if (!commit) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, reveal->pos, "hgn.seed-commit",
					  "SeedReveal without a SeedCommit: nothing shows the seed was chosen before play");
		scheme_note(dg);
		return -1;
	}
	if (!is_commit_hex(commit->value)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, commit->pos, "hgn.seed-commit",
					  "SeedCommit must be 64 lowercase hexadecimal digits, not '%s'",
					  commit->value);
		scheme_note(dg);
		return -1;
	}
	if (!reveal)
		return bad ? -1 : 0;
	char expect[HG_FAIR_HEX_LEN + 1];
	if (hg_fair_commit(reveal->value, expect) != 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, reveal->pos, "hgn.seed-commit",
					  "SeedReveal must be 64 lowercase hexadecimal digits (the %d secret bytes), not '%s'",
					  HG_FAIR_SECRET_BYTES, reveal->value);
		scheme_note(dg);
		return -1;
	}
	if (strcmp(expect, commit->value) != 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, reveal->pos, "hgn.seed-commit",
					  "the revealed seed does not match its commitment");
		hg_diag_note(dg, "BLAKE2b-256 of the revealed secret is %s", expect);
		hg_diag_note(dg, "%s:%u:%u: SeedCommit is %s", commit->pos.file ? commit->pos.file : "",
			     commit->pos.line, commit->pos.col, commit->value);
		scheme_note(dg);
		return -1;
	}
	return bad ? -1 : 0;
}
