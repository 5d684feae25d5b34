/* Sorting the heat map; a cell's case and verdict on hover (the heading holds the case,
   the legend the verdict); and a mark that says everything drew, which the browser test
   reads. */
(function() {
  var rows = document.querySelector('#heat .rows');
  // Names in the order the page was written in (report::class::by_name): the button
  // gives that order back, whatever the browser's locale would make of the names.
  var byName = function(a, b) {
    return a.dataset.rank - b.dataset.rank;
  };
  var order = {
    score: function(a, b) {
      return b.dataset.score - a.dataset.score || byName(a, b);
    },
    name: byName
  };
  document.querySelectorAll('button[data-sort]').forEach(function(button) {
    button.addEventListener('click', function() {
      Array.prototype.slice.call(rows.children).sort(order[button.dataset.sort]).forEach(function(row) {
        rows.appendChild(row);
      });
    });
  });
  var heads = document.getElementById('cases-row').children;
  var labels = {};
  document.querySelectorAll('.legend li').forEach(function(item) {
    labels[item.firstChild.className.replace('key', '').trim()] = item.textContent.trim();
  });
  rows.addEventListener('mouseover', function(event) {
    var cell = event.target;
    if (cell.tagName === 'I' && !cell.title) {
      var at = Array.prototype.indexOf.call(cell.parentNode.children, cell);
      cell.title = heads[at].title + ': ' + labels[cell.className || 'p'];
    }
  });
  var charts = document.querySelectorAll('svg.chart');
  var drawn = charts.length > 0 && Array.prototype.every.call(charts, function(chart) {
    var box = chart.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && chart.querySelector('rect');
  });
  if (drawn) {
    // The page's own size (the heat map scrolls inside it, the page never sideways), and
    // the sections that have one and fit in it.
    var page = document.documentElement;
    var sections = Array.prototype.filter.call(document.querySelectorAll('section'), function(section) {
      var box = section.getBoundingClientRect();
      return box.height > 0 && box.right <= page.clientWidth;
    });
    document.body.setAttribute('data-rendered', 'charts ' + charts.length + ', rows ' + rows.children.length +
      ', sections ' + sections.length + ', width ' + page.scrollWidth + ', height ' + page.scrollHeight);
  }
})();
