from tutor.app.cli import main

raise SystemExit(main())
