/*
 * vct.h — victory by continuous threats (VCT) for the side to move, by depth-first proof-number
 * search (df-pn) over fours and threes.
 *
 * The attacker (OR nodes) plays fours and threes; facing the defender's four it blocks, facing
 * the defender's three it plays fours or blocks that make a three of its own. Every attacker node
 * first asks the VCF prover, so most of a proof's leaves are VCFs. The defender (AND nodes) answers
 * a four with its five point and a three with exactly the points that stop it (rj_defence: gaps,
 * ends, the far point of a split three) and every four of its own; a defender with a VCF refutes a
 * three at once. Renju black never plays a foul on either side, so a white threat whose only
 * answers are black's forbidden points wins. Table entries are keyed by position, attacker and
 * the line's stone limit, so proofs of positions further down the same line share them (the
 * verifier relies on that).
 */
#ifndef RJ_VCT_H
#define RJ_VCT_H

#include "search.h"

/* Nodes one VCF check of a VCT node may spend (the search default, rj_start_search): most
 * checks settle in a few nodes, and a deep VCF is found by the VCT's own fours anyway
 * (docs/history.md has the caps measured). */
#define RJ_VCT_VCF_CAP 60
/* The VCT's threshold slack (rj_pn_select): a child may pass its second-best sibling by half, so
 * the search switches lines less often (docs/history.md has the nodes it saved). */
#define RJ_VCT_PN_SLACK 2

/* VCT3 (RJ_PROVE_VCT3) widens the attacker's moves at its first plies by quiet threats, λ-search's
 * next order: a quiet move is a threat when, were the defender to pass, the attacker would win by
 * a plain VCT (of at most RJ_VCT3_THREAT_CAP nodes); the defender answers it by its fours and
 * threes and the points of that VCT proof's reach (its moves, the lines the attacker's moves build
 * on, its VCF leaves' lines), so a proof needs the verifier to be sure of it. Node keys below the
 * last quiet ply are salted by their ply. */
#define RJ_VCT3_THREAT_CAP 8000
/* The share of a VCT3 proof's budgets its plain VCT gets first. */
#define RJ_VCT3_PLAIN_SHARE 0.5
/* The plies (from a proof's root) at which the attacker may play quiet threats, for `quiet` of them
 * in a line (<= 0: none). */
static inline int rj_vct3_quiet_plies(int quiet) { return quiet > 0 ? 2 * quiet - 1 : 0; }

/* Proves the attacker's (the side to move's) VCT within lines ending at s->stone_limit stones.
 * Returns 1 proven, 0 not (disproven or a budget ran out: s->aborted). On a proof, s->pv[0]
 * holds the line to the five. */
int rj_vct_prove(struct search *s);

#endif
