// Package blossom finds a maximum-weight matching in a general graph by
// Edmonds' blossom algorithm (the primal-dual method, O(n³)), with weights
// wide enough to hold many criteria compared in order. The Swiss pairing
// systems use it to pick, among all legal pairings of a bracket, the one
// the rules rank best.
package blossom
