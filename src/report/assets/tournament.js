/* The filter by player; the board of a game opened (built then, once: a page of 870
   games builds one board, not 870), stepped by buttons and a slider; a game named in the
   address (#g12) opened; and a mark that says everything drew, which the browser test
   reads. T, set before this script, holds the labels and the players' names. */
(function() {
  var S = 15;
  var games = document.querySelectorAll('details.game');
  var filter = document.getElementById('filter');
  if (T.players.length > 2) {
    var label = document.createElement('label');
    label.textContent = T.show + ' ';
    var select = document.createElement('select');
    var all = document.createElement('option');
    all.value = '';
    all.textContent = T.all;
    select.appendChild(all);
    T.players.forEach(function(name, i) {
      var o = document.createElement('option');
      o.value = i;
      o.textContent = name;
      select.appendChild(o);
    });
    select.addEventListener('change', function() {
      var v = select.value;
      Array.prototype.forEach.call(games, function(g) {
        g.hidden = v !== '' && g.dataset.p.split(' ').indexOf(v) < 0;
      });
    });
    label.appendChild(select);
    filter.appendChild(label);
  }

  function make(tag, cls) {
    var e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    return e;
  }

  function board(game) {
    var moves = JSON.parse(game.querySelector('.m').textContent);
    var f = game.querySelector('.f');
    var five = f ? JSON.parse(f.textContent) : [];
    var viewer = make('div', 'viewer');
    var grid = make('div', 'board');
    grid.setAttribute('role', 'img');
    var cells = [];
    for (var r = -1; r < S; r++) {
      for (var c = -1; c < S; c++) {
        var cell = make('i');
        if (r < 0 || c < 0) {
          cell.className = 'l';
          cell.textContent = r < 0 && c < 0 ? '' : String(r < 0 ? c : r);
          cell.setAttribute('aria-hidden', 'true');
        } else {
          cells.push(cell);
        }
        grid.appendChild(cell);
      }
    }
    var bar = make('div', 'controls');

    function button(label, text, to) {
      var b = make('button');
      b.type = 'button';
      b.textContent = text;
      b.title = label;
      b.setAttribute('aria-label', label);
      b.addEventListener('click', function() {
        show(to());
      });
      bar.appendChild(b);
      return b;
    }
    var at = moves.length;
    var first = button(T.first, '«', function() {
      return 0;
    });
    var previous = button(T.previous, '‹', function() {
      return at - 1;
    });
    var range = make('input');
    range.type = 'range';
    range.min = 0;
    range.max = moves.length;
    range.step = 1;
    range.setAttribute('aria-label', T.step);
    range.addEventListener('input', function() {
      show(+range.value);
    });
    bar.appendChild(range);
    var next = button(T.next, '›', function() {
      return at + 1;
    });
    var last = button(T.last, '»', function() {
      return moves.length;
    });
    var out = make('output');
    out.setAttribute('aria-live', 'polite');
    bar.appendChild(out);

    function show(k) {
      at = Math.max(0, Math.min(moves.length, k));
      cells.forEach(function(cell) {
        cell.className = '';
      });
      for (var i = 0; i < at; i++) {
        cells[moves[i][0] * S + moves[i][1]].className = i % 2 ? 'o' : 'x';
      }
      var text = T.start;
      if (at > 0) {
        var p = moves[at - 1];
        cells[p[0] * S + p[1]].className += ' last';
        text = T.move + ' ' + at + T.moveEnd + ' ' + T.of + ' ' + moves.length + ': ' + (at % 2 ? 'X' : 'O') + ' ' + p[0] + ' ' + p[1];
      }
      if (at === moves.length && five.length) {
        five.forEach(function(q) {
          cells[q[0] * S + q[1]].className += ' five';
        });
        text += ' (' + T.five + ')';
      }
      range.value = at;
      out.textContent = text;
      grid.setAttribute('aria-label', T.board + ' ' + text);
      first.disabled = previous.disabled = at === 0;
      next.disabled = last.disabled = at === moves.length;
      document.body.setAttribute('data-board', game.id + ' ' + at + '/' + moves.length + ', stones ' + grid.querySelectorAll('.x,.o').length + ', five ' + grid.querySelectorAll('.five').length);
    }
    viewer.appendChild(grid);
    viewer.appendChild(bar);
    game.insertBefore(viewer, game.querySelector('.m'));
    show(moves.length);
  }

  function open(game) {
    if (game.open && !game.querySelector('.viewer') && game.querySelector('.m')) {
      board(game);
    }
  }
  document.addEventListener('toggle', function(event) {
    if (event.target.classList && event.target.classList.contains('game')) {
      open(event.target);
    }
  }, true);

  function fromAddress() {
    var id = location.hash.slice(1);
    var game = id && document.getElementById(id);
    if (game && game.classList.contains('game')) {
      game.hidden = false;
      game.open = true;
      open(game);
    }
  }
  fromAddress();
  window.addEventListener('hashchange', fromAddress);
  var tables = document.querySelectorAll('table.standings,table.cross');
  var drawn = Array.prototype.every.call(tables, function(t) {
    var box = t.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
  if (drawn && tables.length === 2) {
    document.body.setAttribute('data-rendered', 'standings ' + document.querySelectorAll('table.standings tbody tr').length + ', crosstable ' + document.querySelectorAll('table.cross td[title]').length + ', games ' + games.length);
  }
})();
