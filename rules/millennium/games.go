package millennium

// DavisDAgostino is a published Millennium game that ends in mate: George
// Davis v. William d'Agostino, correspondence 2006, as Wikipedia writes it
// (figurines, "×" for captures, the result with an en dash). The demo plays
// it, and the tests read it as people paste records.
const DavisDAgostino = `[Event "corr."]
[White "George Davis"]
[Black "William d'Agostino"]
[Date "2006"]

1. ♘2g3 ♝2b7 2. ♗3e3 ♞3c6 3. ♘2b3 ♝2g7 4. ♘2a5 ♛1b6 5. ♘3c5 ♛×1b2 6. ♘×3b7 ♛3b4
7. ♘3c5 ♛3e1+ 8. ♕2e1 ♛3c3+ 9. ♔2f1 ♛×1a1 10. ♕2c1 ♝2a6+ 11. 2e2 ♛×1a2 12. ♘2c7
♜2h7 13. ♘1e7+ ♚2e8 14. ♘1c6 ♜1c8 15. ♘×3c7 ♜×1c2 16. ♕2c7 ♛2b1+ 17. ♔1g1 ♞3e5
18. ♕1d7+ ♚2f8 19. ♗2f4 ♛2d1 20. ♗×3e5 ♛3e1+ 21. ♔2g1 ♛×3e5 22. ♕2e7+ ♚1g7
23. ♕×3d7 ♝2d4+ 24. 2e3 ♜2c1+ 25. ♔1g1 ♛3g3+ 26. 2g2 ♜2f1+ 27. ♘×2f1 ♝3e3+
28. 2f2 ♛×2f2# 0–1
`
