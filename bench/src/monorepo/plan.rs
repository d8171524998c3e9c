//! The model behind the generated code: packages with their dependency DAG, and the entities
//! each library implements (fields, optional parts, and the functions and methods written for
//! them, so that later packages can call them).

use std::collections::HashMap;

use super::graph::Callable;
use super::names::{self, Names};
use crate::rng::SplitMix64;

/// What a package is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PackageKind {
    /// `shared`, `core`, `ui-kit`: used by (almost) every other package.
    Hub,
    /// A domain library with entities, services and handlers.
    Library,
    /// A React-style application (`.tsx`) on top of libraries.
    App,
}

impl PackageKind {
    /// The manifest's word for it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            PackageKind::Hub => "hub",
            PackageKind::Library => "library",
            PackageKind::App => "app",
        }
    }
}

/// One workspace package.
#[derive(Debug, Clone)]
pub(crate) struct Package {
    /// Hub, library or app.
    pub(crate) kind: PackageKind,
    /// `@gen/billing-12`.
    pub(crate) name: String,
    /// `packages/billing-12`.
    pub(crate) dir: String,
    /// `billing12`: the key of its services in an app.
    pub(crate) camel: String,
    /// `Billing12`.
    pub(crate) pascal: String,
    /// Its package.json `exports` point into `dist/` (so that a resolver must map the build
    /// output back to `src/`); otherwise `main` and `types` name `src/index.ts`.
    pub(crate) dist_exports: bool,
    /// Packages it depends on (indices into `Ctx::packages`, all smaller than its own).
    pub(crate) deps: Vec<usize>,
    /// Its entities (indices into `Ctx::entities`; libraries only).
    pub(crate) entities: Vec<usize>,
    /// `auditTrail` of its internal module (libraries only, once written).
    pub(crate) audit: Option<Callable>,
    /// `create{Pascal}Services` (libraries only, once written).
    pub(crate) factory: Option<Callable>,
}

impl Package {
    /// A package `{folder}/{slug}` named `@gen/{slug}`.
    pub(crate) fn new(
        kind: PackageKind,
        folder: &str,
        slug: &str,
        dist_exports: bool,
        deps: Vec<usize>,
    ) -> Package {
        let pascal = names::pascal_of_kebab(slug);
        let mut camel = pascal.clone();
        if let Some(first) = camel.get_mut(0..1) {
            first.make_ascii_lowercase();
        }
        Package {
            kind,
            name: format!("@gen/{slug}"),
            dir: format!("{folder}/{slug}"),
            camel,
            pascal,
            dist_exports,
            deps,
            entities: Vec::new(),
            audit: None,
            factory: None,
        }
    }

    /// Whether it holds `.tsx` components.
    pub(crate) fn jsx(&self) -> bool {
        self.kind == PackageKind::App || self.name == "@gen/ui-kit"
    }
}

/// The TypeScript type of an entity field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FieldType {
    /// `string`.
    Text,
    /// `number`.
    Number,
    /// `boolean`.
    Flag,
    /// `string[]`.
    Tags,
    /// `string`, optional.
    OptionalText,
}

impl FieldType {
    /// The type as written in an interface.
    pub(crate) fn ts(self) -> &'static str {
        match self {
            FieldType::Text | FieldType::OptionalText => "string",
            FieldType::Number => "number",
            FieldType::Flag => "boolean",
            FieldType::Tags => "string[]",
        }
    }
}

/// A field beyond `name`, `status` and the measure.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    /// Its name.
    pub(crate) name: &'static str,
    /// Its type.
    pub(crate) ty: FieldType,
    /// Its doc line.
    pub(crate) doc: &'static str,
}

const MEASURES: [(&str, &str); 8] = [
    ("amountCents", "Amount in cents"),
    ("quantity", "Units involved"),
    ("score", "Quality score, higher is better"),
    ("weightGrams", "Weight in grams"),
    ("durationMinutes", "Expected duration in minutes"),
    ("capacity", "How many it holds"),
    ("priority", "Priority, higher goes first"),
    ("seats", "Seats taken"),
];

const EXTRAS: [(&str, FieldType, &str); 12] = [
    ("email", FieldType::Text, "Contact address"),
    ("region", FieldType::Text, "Region code, e.g. `eu-west`"),
    ("ownerId", FieldType::Text, "Who is responsible"),
    (
        "archivedReason",
        FieldType::OptionalText,
        "Why it was archived, if it was",
    ),
    ("tags", FieldType::Tags, "Free-form labels for filtering"),
    ("notes", FieldType::OptionalText, "Notes for operators"),
    (
        "externalRef",
        FieldType::OptionalText,
        "Reference in the upstream system",
    ),
    ("locale", FieldType::Text, "BCP 47 language tag"),
    ("rating", FieldType::Number, "Average rating, 0 to 5"),
    ("verified", FieldType::Flag, "Whether a person checked it"),
    ("code", FieldType::Text, "Short code shown in reports"),
    (
        "sortOrder",
        FieldType::Number,
        "Position in manual orderings",
    ),
];

/// Extra statuses beyond `Draft`, `Active` and `Archived`.
const STATUSES: [&str; 5] = ["Pending", "Suspended", "Closed", "Review", "Blocked"];

/// Optional service methods (and the handlers and page parts that use them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extra {
    /// `groupByStatus()`.
    GroupByStatus,
    /// `total()`: the sum of the measure.
    Total,
    /// `search(text)`.
    Search,
    /// `latest()`.
    Latest,
    /// `ranked(limit)`.
    Ranked,
    /// `page(n)` through `Paginator`.
    Page,
    /// `bulkCreate(inputs)`.
    BulkCreate,
    /// `auditTrail(ids)` through the package's internal helper.
    Audit,
    /// `countActive()`.
    CountActive,
    /// `removeArchived()`.
    RemoveArchived,
    /// `onStatusChange(listener)`.
    Subscribe,
    /// `chunks(size)`.
    Chunks,
}

const EXTRAS_ALL: [Extra; 12] = [
    Extra::GroupByStatus,
    Extra::Total,
    Extra::Search,
    Extra::Latest,
    Extra::Ranked,
    Extra::Page,
    Extra::BulkCreate,
    Extra::Audit,
    Extra::CountActive,
    Extra::RemoveArchived,
    Extra::Subscribe,
    Extra::Chunks,
];

/// One entity of a library, with everything written for it.
#[derive(Debug, Clone)]
pub(crate) struct Entity {
    /// `RetailOrder`, `retailOrder`, `retail-order`.
    pub(crate) names: Names,
    /// Its library (index into `Ctx::packages`).
    pub(crate) package: usize,
    /// The numeric field every helper sums and ranks by.
    pub(crate) measure: &'static str,
    /// Doc line of the measure.
    pub(crate) measure_doc: &'static str,
    /// Other fields.
    pub(crate) fields: Vec<Field>,
    /// Statuses beyond `Draft`, `Active`, `Archived`.
    pub(crate) statuses: Vec<&'static str>,
    /// An entity it refers to (`{upstream}Id` field), in its own library or a dependency.
    pub(crate) upstream: Option<usize>,
    /// A caching repository decorator in front of the in-memory one.
    pub(crate) cached: bool,
    /// A repository over the HTTP API (`HttpClient`), for production hosts.
    pub(crate) remote: bool,
    /// Policy subclasses (0, or 2 to 3).
    pub(crate) policies: usize,
    /// A wire form (DTO) with converters and a CSV exporter.
    pub(crate) dto: bool,
    /// Optional service methods.
    pub(crate) extras: Vec<Extra>,
    /// Everything callable written for it, by role (`describe`, `svc.get`, …).
    pub(crate) api: HashMap<&'static str, ApiItem>,
}

/// A function or method written for an entity, and the feature module it is in.
#[derive(Debug, Clone)]
pub(crate) struct ApiItem {
    /// The function or method.
    pub(crate) callable: Callable,
    /// `model`, `rules`, `service`, …: the file stem after the entity's name.
    pub(crate) module: &'static str,
}

impl Entity {
    /// A new entity of `package`, the `index`-th of the tree; `upstream` is chosen by the
    /// caller.
    pub(crate) fn random(
        rng: &mut SplitMix64,
        index: usize,
        package: usize,
        upstream: Option<usize>,
    ) -> Entity {
        let (measure, measure_doc) = *rng.pick(&MEASURES);
        let mut fields = Vec::new();
        for _ in 0..rng.between(2, 6) {
            let (name, ty, doc) = *rng.pick(&EXTRAS);
            if !fields.iter().any(|f: &Field| f.name == name) {
                fields.push(Field { name, ty, doc });
            }
        }
        let mut statuses = Vec::new();
        for _ in 0..rng.between(0, 2) {
            let status = *rng.pick(&STATUSES);
            if !statuses.contains(&status) {
                statuses.push(status);
            }
        }
        let extras = EXTRAS_ALL
            .iter()
            .copied()
            .filter(|_| rng.percent(65))
            .collect();
        Entity {
            names: names::entity(index),
            package,
            measure,
            measure_doc,
            fields,
            statuses,
            upstream,
            cached: rng.percent(40),
            remote: rng.percent(60),
            policies: if rng.percent(60) {
                rng.between(2, 3)
            } else {
                0
            },
            dto: rng.percent(60),
            extras,
            api: HashMap::new(),
        }
    }

    /// Whether the optional service method `extra` was written.
    pub(crate) fn has(&self, extra: Extra) -> bool {
        self.extras.contains(&extra)
    }

    /// The callable written for `role`.
    pub(crate) fn api(&self, role: &str) -> &ApiItem {
        match self.api.get(role) {
            Some(callable) => callable,
            None => panic!("generator bug: {} has no `{role}`", self.names.pascal),
        }
    }

    /// Every status, `Draft`, `Active`, the extras, then `Archived`.
    pub(crate) fn all_statuses(&self) -> Vec<&'static str> {
        let mut all = vec!["Draft", "Active"];
        all.extend(self.statuses.iter().copied());
        all.push("Archived");
        all
    }

    /// Src-relative folder of its feature (`retail-order`).
    pub(crate) fn feature(&self) -> &str {
        &self.names.kebab
    }
}
