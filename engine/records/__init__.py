"""Game records, read and written in one place: Piskvork `.psq` files (`psq`), the match runner's
`results.json` games (`results`) and the readable text record of a match game (`text`)."""
