//! Export: every node in position order, then every edge (by source position, kind, target).

use crate::Query;
use crate::emit::{Edges, Emission, Item, Order, Section, emit};
use crate::error::QueryError;
use crate::header::{Header, Question};
use crate::sink::{ResultSink, Summary};

impl Query<'_> {
    /// Streams the whole graph into `sink`. Memory grows with the graph (every record guard is
    /// held so nodes can be sorted); this is the one unbounded query, meant for dumps.
    pub fn export(&self, sink: &mut dyn ResultSink) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let items = snapshot.node_keys()?.into_iter().map(Item::plain).collect();
        let summary = Summary {
            partial: false,
            found: true,
            ..Summary::default()
        };
        let sections = [Section::whole(items)];
        emit(
            self,
            Emission {
                header: Header::new(Question::Export),
                sections: &sections,
                order: Order::Position,
                edges: Edges::BetweenAll,
                summary,
            },
            sink,
        )
    }
}
