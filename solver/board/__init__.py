"""The board in the browser (``brisque serve``, ``brisque play``): a Starlette application
(:mod:`solver.board.app`) with a router for the analysis board
(:mod:`solver.board.analysis_routes`) and one for the games against the engine
(:mod:`solver.board.game_routes`), its analyses in worker processes
(:mod:`solver.board.jobs`), and two pages that work offline (``static/``: ES modules that
share ``common.js``)."""
