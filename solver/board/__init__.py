"""The analysis board in the browser (``brisque serve``): a Starlette application with a
JSON API (:mod:`solver.board.app`), its analyses in worker processes
(:mod:`solver.board.jobs`), and one page that works offline (``static/``)."""
