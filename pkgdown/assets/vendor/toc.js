/* calm: a small stand-in for afeld's bootstrap-toc 1.0.1, which pkgdown
   2.0's template loads from a CDN and the npm registry does not carry.
   Toc.init({$nav, $scope}) lists the headings in $scope (h2 and h3; a
   heading with data-toc-skip is left out) as nested links in $nav. */
window.Toc = {
  init: function(opts) {
    var $nav = opts.$nav;
    if (!$nav || !$nav.length) return;
    var $top = $('<ul class="nav nav-pills flex-column"></ul>');
    var $last = null;
    opts.$scope.each(function() {
      var $h = $(this);
      if ($h.is('[data-toc-skip]')) return;
      var id = $h.attr('id') || $h.closest('section, div.section').attr('id');
      var level = parseInt(this.tagName.substring(1), 10);
      if (!id || level > 3) return;
      var $li = $('<li class="nav-item"></li>').append(
        $('<a class="nav-link"></a>').attr('href', '#' + id)
          .text($h.attr('data-toc-text') || $h.text().trim()));
      if (level === 2 || !$last) {
        $top.append($li);
        $last = $li;
      } else {
        var $sub = $last.children('ul');
        if (!$sub.length) $sub = $('<ul class="nav nav-pills flex-column"></ul>').appendTo($last);
        $sub.append($li);
      }
    });
    $nav.append($top);
  }
};
